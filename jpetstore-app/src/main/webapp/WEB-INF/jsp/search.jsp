<c:set var="title" value="Search"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<h1>Search</h1>
<c:choose>
  <c:when test="${not empty requestScope.message}"><p class="lead"><c:out value="${requestScope.message}"/></p></c:when>
  <c:when test="${empty results.products}">
    <p class="lead" id="result-summary">Nothing matches “<c:out value="${results.keywords}"/>”. Try another word, like “dog” or “parrot”.</p>
  </c:when>
  <c:otherwise>
    <c:set var="found" value="${fn:length(results.products)}"/>
    <p class="lead" id="result-summary">${found}${results.truncated ? '+' : ''} ${found == 1 ? 'product matches' : 'products match'}
      “<c:out value="${results.keywords}"/>”<c:if test="${results.pageCount > 1}"> · page ${page} of ${results.pageCount}</c:if>.</p>
    <table class="list" id="results">
      <thead><tr><th>Product</th><th>Name</th><th>Category</th></tr></thead>
      <tbody>
      <c:forEach var="p" items="${pageProducts}">
        <tr>
          <td class="mono"><a href="${ctx}/product?id=${fn:escapeXml(p.id)}"><c:out value="${p.id}"/></a></td>
          <td><a href="${ctx}/product?id=${fn:escapeXml(p.id)}"><c:out value="${p.name}"/></a></td>
          <td class="muted"><c:out value="${p.categoryId}"/></td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    <c:if test="${results.pageCount > 1}">
      <nav class="pager" aria-label="Result pages">
        <c:if test="${page > 1}"><a href="${ctx}/search?page=${page - 1}" rel="prev">‹ Previous</a></c:if>
        <span>Page ${page} of ${results.pageCount}</span>
        <c:if test="${page < results.pageCount}"><a href="${ctx}/search?page=${page + 1}" rel="next">Next ›</a></c:if>
      </nav>
    </c:if>
  </c:otherwise>
</c:choose>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
