<c:set var="title" value="Welcome"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<section class="hero">
  <h1>Find a friend for life</h1>
  <p>Fish, dogs, reptiles, cats and birds from careful breeders. Browse a category or search by name.</p>
</section>
<ul class="card-grid" id="categories">
  <c:forEach var="c" items="${categories}">
    <li>
      <a class="card${c.id == requestScope.signedOn.favouriteCategoryId ? ' favourite' : ''}" href="${ctx}/category?id=${fn:escapeXml(c.id)}">
        <span class="card-title"><c:out value="${c.name}"/></span>
        <span class="card-text"><c:out value="${c.description}"/></span>
        <c:if test="${c.id == requestScope.signedOn.favouriteCategoryId}"><span class="tag">Your favourite</span></c:if>
      </a>
    </li>
  </c:forEach>
</ul>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
