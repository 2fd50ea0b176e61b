<%@ page isErrorPage="true" %>
<c:set var="status" value="${requestScope['jakarta.servlet.error.status_code']}"/>
<c:set var="detail" value="${requestScope['jakarta.servlet.error.message']}"/>
<c:choose>
  <c:when test="${status == 400}"><c:set var="title" value="That request did not make sense"/></c:when>
  <c:when test="${status == 403}"><c:set var="title" value="Not allowed"/></c:when>
  <c:when test="${status == 404}"><c:set var="title" value="Not found"/></c:when>
  <c:when test="${status == 405}"><c:set var="title" value="Not like that"/></c:when>
  <c:when test="${status == 503}"><c:set var="title" value="Back in a minute"/></c:when>
  <c:otherwise><c:set var="title" value="Something went wrong"/></c:otherwise>
</c:choose>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<section class="panel narrow error-page" id="error" data-status="${status}">
  <h1><c:out value="${title}"/></h1>
  <c:choose>
    <c:when test="${status >= 400 && status < 500 && not empty detail && detail != 'Not Found' && detail != 'Bad Request'}">
      <p class="lead" id="error-detail"><c:out value="${detail}"/></p>
    </c:when>
    <c:when test="${status == 404}"><p class="lead" id="error-detail">We could not find that page.</p></c:when>
    <c:when test="${status == 503}"><p class="lead" id="error-detail"><c:out value="${detail}"/></p></c:when>
    <c:otherwise><p class="lead" id="error-detail">We are sorry: the shop could not handle that request. Please try again.</p></c:otherwise>
  </c:choose>
  <p><a class="button" href="${ctx}/">Back to the shop</a></p>
</section>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
