<%@ tag body-content="empty" pageEncoding="UTF-8" trimDirectiveWhitespaces="true"
        description="A labelled text input bound to the request's form: shows its value and its error message" %>
<%@ attribute name="name" required="true" %>
<%@ attribute name="label" required="true" %>
<%@ attribute name="type" %>
<%@ attribute name="required" type="java.lang.Boolean" %>
<%@ attribute name="autocomplete" %>
<%@ attribute name="placeholder" %>
<%@ taglib prefix="c" uri="jakarta.tags.core" %>
<%@ taglib prefix="fn" uri="jakarta.tags.functions" %>
<c:set var="problem" value="${requestScope.form.errors[name]}"/>
<c:set var="inputType" value="${empty pageScope.type ? 'text' : pageScope.type}"/>
<div class="field${empty pageScope.problem ? '' : ' invalid'}">
  <label for="f-${name}">${fn:escapeXml(label)}<c:if test="${pageScope.required}"> <span class="req" aria-hidden="true">*</span></c:if></label>
  <input id="f-${name}" name="${name}" type="${inputType}"
         value="${inputType == 'password' ? '' : fn:escapeXml(requestScope.form.values[name])}"
         <c:if test="${pageScope.required}">required</c:if>
         <c:if test="${not empty pageScope.autocomplete}">autocomplete="${pageScope.autocomplete}"</c:if>
         <c:if test="${not empty pageScope.placeholder}">placeholder="${fn:escapeXml(pageScope.placeholder)}"</c:if>
         <c:if test="${not empty pageScope.problem}">aria-invalid="true" aria-describedby="e-${name}"</c:if>>
  <c:if test="${not empty pageScope.problem}"><p class="field-error" id="e-${name}"><c:out value="${pageScope.problem}"/></p></c:if>
</div>
