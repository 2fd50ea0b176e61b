package io.cohort.node.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ApplicationClassLoaderTest {

    private ApplicationClassLoader loader;

    @BeforeEach
    void createLoader() throws Exception {
        loader = new ApplicationClassLoader(getClass().getClassLoader(), new WebAppContext());
    }

    @AfterEach
    void closeLoader() throws Exception {
        loader.close();
    }

    @Test
    void firstMissCarriesItsStackTraceLaterMissesOfTheSameNameDoNot() {
        ClassNotFoundException first = catchThrowableOfType(ClassNotFoundException.class,
                () -> loader.loadClass("cart"));
        ClassNotFoundException second = catchThrowableOfType(ClassNotFoundException.class,
                () -> loader.loadClass("cart"));

        assertThat(first).isNotInstanceOf(ApplicationClassLoader.RememberedMiss.class);
        assertThat(first.getStackTrace()).isNotEmpty();
        assertThat(second).isInstanceOf(ApplicationClassLoader.RememberedMiss.class).hasMessageContaining("cart");
        assertThat(second.getStackTrace()).isEmpty();
        assertThat(catchThrowableOfType(ClassNotFoundException.class, () -> Class.forName("cart", false, loader)))
                .isInstanceOf(ApplicationClassLoader.RememberedMiss.class);
    }

    @Test
    void classesThatExistStillLoadAndAnotherMissingNameIsLookedUpAfresh() throws Exception {
        catchThrowableOfType(ClassNotFoundException.class, () -> loader.loadClass("cart"));

        assertThat(loader.loadClass("java.lang.String")).isSameAs(String.class);
        assertThat(loader.loadClass(ApplicationClassLoaderTest.class.getName())).isSameAs(ApplicationClassLoaderTest.class);
        assertThat(catchThrowableOfType(ClassNotFoundException.class, () -> loader.loadClass("order")))
                .isNotInstanceOf(ApplicationClassLoader.RememberedMiss.class);
    }

    @Test
    void clearingTheCacheForgetsRememberedMisses() {
        catchThrowableOfType(ClassNotFoundException.class, () -> loader.loadClass("cart"));

        loader.clearCache();

        assertThat(catchThrowableOfType(ClassNotFoundException.class, () -> loader.loadClass("cart")))
                .isNotInstanceOf(ApplicationClassLoader.RememberedMiss.class);
    }
}
