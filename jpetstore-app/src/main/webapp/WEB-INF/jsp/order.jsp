<c:set var="title" value="Order #${order.id}"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<nav class="crumbs" aria-label="Breadcrumb"><a href="${ctx}/orders">Your orders</a> › #${order.id}</nav>
<section class="panel" id="order" data-order-id="${order.id}">
  <h1>Order #${order.id}</h1>
  <p class="lead">Placed <c:out value="${order.placedAtText}"/>.</p>
  <div class="grid-3 summary">
    <div><h2>Bill to</h2><c:set var="addr" value="${order.billTo}"/><%@ include file="/WEB-INF/jsp/address.jspf" %></div>
    <div><h2>Ship to</h2><c:set var="addr" value="${order.shipTo}"/><%@ include file="/WEB-INF/jsp/address.jspf" %></div>
    <div><h2>Payment</h2><p>${fn:escapeXml(order.payment.cardType)} <span class="mono">${fn:escapeXml(order.payment.maskedNumber)}</span><br>expires ${fn:escapeXml(order.payment.expiry)}</p></div>
  </div>
  <table class="list" id="order-lines">
    <thead><tr><th>#</th><th>Item</th><th>Description</th><th class="num">Price</th><th class="num">Quantity</th><th class="num">Total</th></tr></thead>
    <tbody>
    <c:forEach var="line" items="${order.lines}">
      <tr>
        <td>${line.lineNumber}</td>
        <td class="mono"><a href="${ctx}/item?id=${fn:escapeXml(line.itemId)}"><c:out value="${line.itemId}"/></a></td>
        <td><c:out value="${line.description}"/></td>
        <td class="num"><shop:price value="${line.unitPrice}"/></td>
        <td class="num">${line.quantity}</td>
        <td class="num"><shop:price value="${line.total}"/></td>
      </tr>
    </c:forEach>
    </tbody>
    <tfoot><tr><th colspan="5" class="num">Total</th><th class="num" id="total"><shop:price value="${order.total}"/></th></tr></tfoot>
  </table>
</section>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
