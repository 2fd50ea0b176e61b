<c:set var="title" value="${item.displayName}"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<nav class="crumbs" aria-label="Breadcrumb"><a href="${ctx}/">Home</a> ›
  <a href="${ctx}/category?id=${fn:escapeXml(requestScope.category.id)}"><c:out value="${requestScope.category.name}"/></a> ›
  <a href="${ctx}/product?id=${fn:escapeXml(product.id)}"><c:out value="${product.name}"/></a> › <c:out value="${item.id}"/></nav>
<article class="panel item-detail" id="item">
  <div class="item-picture" aria-hidden="true"><c:out value="${fn:substring(product.name, 0, 1)}"/></div>
  <div>
    <h1><c:out value="${item.displayName}"/></h1>
    <p class="lead"><c:out value="${product.description}"/></p>
    <dl class="facts">
      <dt>Item</dt><dd class="mono"><c:out value="${item.id}"/></dd>
      <dt>Price</dt><dd class="price" id="price"><shop:price value="${item.listPrice}"/></dd>
      <dt>Availability</dt>
      <dd id="stock"><c:choose><c:when test="${item.inStock}">${item.stock} in stock</c:when><c:otherwise>Out of stock</c:otherwise></c:choose></dd>
    </dl>
    <form method="post" action="${ctx}/cart/add">
      <shop:csrf/>
      <input type="hidden" name="itemId" value="${fn:escapeXml(item.id)}">
      <button type="submit" id="add-to-cart" ${item.inStock ? '' : 'disabled'}>Add to cart</button>
    </form>
  </div>
</article>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
