package io.cohort.jpetstore.web;

import jakarta.el.ELContext;
import jakarta.el.ELException;
import jakarta.el.ELResolver;
import jakarta.el.PropertyNotWritableException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets JSP EL read records, which EL 5.0 (Jakarta EE 10) does not: {@code ${item.listPrice}} calls the record's
 * public no-argument method {@code listPrice()}, or else {@code isX()}/{@code getX()}. Read-only.
 * Containers with EL 6 resolve record components themselves; this resolver gives the same answers there.
 */
final class RecordELResolver extends ELResolver {
    private final Map<Class<?>, Map<String, Optional<Method>>> readers = new ConcurrentHashMap<>();

    @Override
    public Object getValue(ELContext context, Object base, Object property) {
        Optional<Method> reader = reader(base, property);
        if (reader.isEmpty()) {
            return null;
        }
        context.setPropertyResolved(base, property);
        try {
            return reader.get().invoke(base);
        } catch (IllegalAccessException e) {
            throw new ELException("cannot read " + property + " of " + base.getClass().getName(), e);
        } catch (InvocationTargetException e) {
            throw new ELException("reading " + property + " of " + base.getClass().getName() + " failed",
                    e.getCause());
        }
    }

    @Override
    public Class<?> getType(ELContext context, Object base, Object property) {
        if (reader(base, property).isPresent()) {
            context.setPropertyResolved(base, property);
        }
        return null;
    }

    @Override
    public void setValue(ELContext context, Object base, Object property, Object value) {
        if (reader(base, property).isPresent()) {
            throw new PropertyNotWritableException("records are read-only: " + property);
        }
    }

    @Override
    public boolean isReadOnly(ELContext context, Object base, Object property) {
        if (reader(base, property).isPresent()) {
            context.setPropertyResolved(base, property);
            return true;
        }
        return false;
    }

    @Override
    public Class<?> getCommonPropertyType(ELContext context, Object base) {
        return base != null && base.getClass().isRecord() ? String.class : null;
    }

    private Optional<Method> reader(Object base, Object property) {
        if (base == null || !base.getClass().isRecord() || !(property instanceof String name)) {
            return Optional.empty();
        }
        return readers.computeIfAbsent(base.getClass(), c -> new ConcurrentHashMap<>())
                .computeIfAbsent(name, n -> find(base.getClass(), n));
    }

    private static Optional<Method> find(Class<?> type, String name) {
        String capitalized = name.isEmpty() ? name : Character.toUpperCase(name.charAt(0)) + name.substring(1);
        for (String candidate : new String[] {name, "is" + capitalized, "get" + capitalized}) {
            try {
                Method m = type.getMethod(candidate);
                if (m.getReturnType() != void.class && !Modifier.isStatic(m.getModifiers())) {
                    return Optional.of(m);
                }
            } catch (NoSuchMethodException e) {
                // try the next spelling
            }
        }
        return Optional.empty();
    }
}
