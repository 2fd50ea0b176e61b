<c:set var="title" value="Checkout: confirm"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<ol class="steps"><li class="done">Payment and billing</li><li class="done">Shipping</li><li class="current">Confirm</li></ol>
<section class="panel">
  <h1>Confirm your order</h1>
  <div class="grid-3 summary">
    <div><h2>Bill to</h2><c:set var="addr" value="${draft.billTo}"/><%@ include file="/WEB-INF/jsp/address.jspf" %></div>
    <div><h2>Ship to</h2><c:set var="addr" value="${draft.shipTo}"/><%@ include file="/WEB-INF/jsp/address.jspf" %></div>
    <div><h2>Payment</h2><p>${fn:escapeXml(draft.payment.cardType)} <span class="mono">${fn:escapeXml(draft.payment.maskedNumber)}</span><br>expires ${fn:escapeXml(draft.payment.expiry)}</p></div>
  </div>
  <table class="list" id="order-lines">
    <thead><tr><th>Item</th><th>Description</th><th class="num">Price</th><th class="num">Quantity</th><th class="num">Total</th></tr></thead>
    <tbody>
    <c:forEach var="line" items="${cart.lines}">
      <tr>
        <td class="mono"><c:out value="${line.itemId}"/></td>
        <td><c:out value="${line.description}"/></td>
        <td class="num"><shop:price value="${line.unitPrice}"/></td>
        <td class="num">${line.quantity}</td>
        <td class="num"><shop:price value="${line.total}"/></td>
      </tr>
    </c:forEach>
    </tbody>
    <tfoot><tr><th colspan="4" class="num">Total</th><th class="num" id="total"><shop:price value="${cart.subtotal}"/></th></tr></tfoot>
  </table>
  <form method="post" action="${ctx}/checkout/confirm" class="actions">
    <shop:csrf/>
    <input type="hidden" name="orderToken" value="${fn:escapeXml(draft.orderToken)}">
    <input type="hidden" name="orderFingerprint" value="${fn:escapeXml(fingerprint)}">
    <a class="button secondary" href="${ctx}/checkout">Change details</a>
    <button type="submit" id="place-order">Place order</button>
  </form>
</section>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
