<c:set var="title" value="${category.name}"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<nav class="crumbs" aria-label="Breadcrumb"><a href="${ctx}/">Home</a> › <c:out value="${category.name}"/></nav>
<h1><c:out value="${category.name}"/></h1>
<p class="lead"><c:out value="${category.description}"/></p>
<table class="list" id="products">
  <thead><tr><th>Product</th><th>Name</th><th>About</th></tr></thead>
  <tbody>
  <c:forEach var="p" items="${products}">
    <tr>
      <td class="mono"><a href="${ctx}/product?id=${fn:escapeXml(p.id)}"><c:out value="${p.id}"/></a></td>
      <td><a href="${ctx}/product?id=${fn:escapeXml(p.id)}"><c:out value="${p.name}"/></a></td>
      <td class="muted"><c:out value="${p.description}"/></td>
    </tr>
  </c:forEach>
  <c:if test="${empty products}"><tr><td colspan="3" class="muted">No products here yet.</td></tr></c:if>
  </tbody>
</table>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
