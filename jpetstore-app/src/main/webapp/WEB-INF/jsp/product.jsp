<c:set var="title" value="${product.name}"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<nav class="crumbs" aria-label="Breadcrumb"><a href="${ctx}/">Home</a> ›
  <a href="${ctx}/category?id=${fn:escapeXml(requestScope.category.id)}"><c:out value="${requestScope.category.name}"/></a> › <c:out value="${product.name}"/></nav>
<h1><c:out value="${product.name}"/></h1>
<p class="lead"><c:out value="${product.description}"/></p>
<table class="list" id="items">
  <thead><tr><th>Item</th><th>Description</th><th class="num">Price</th><th class="num">In stock</th><th></th></tr></thead>
  <tbody>
  <c:forEach var="i" items="${items}">
    <tr>
      <td class="mono"><a href="${ctx}/item?id=${fn:escapeXml(i.id)}"><c:out value="${i.id}"/></a></td>
      <td><a href="${ctx}/item?id=${fn:escapeXml(i.id)}"><c:out value="${i.displayName}"/></a></td>
      <td class="num"><shop:price value="${i.listPrice}"/></td>
      <td class="num">${i.stock}</td>
      <td class="action">
        <form method="post" action="${ctx}/cart/add">
          <shop:csrf/>
          <input type="hidden" name="itemId" value="${fn:escapeXml(i.id)}">
          <button type="submit" class="small" ${i.inStock ? '' : 'disabled'}>Add to cart</button>
        </form>
      </td>
    </tr>
  </c:forEach>
  </tbody>
</table>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
