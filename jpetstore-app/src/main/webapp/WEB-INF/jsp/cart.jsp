<c:set var="title" value="Your cart"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<h1>Your cart</h1>
<c:choose>
  <c:when test="${empty cart.lines}">
    <p class="lead" id="cart-empty">Your cart is empty. <a href="${ctx}/">Find a pet</a> to add.</p>
  </c:when>
  <c:otherwise>
    <table class="list" id="cart">
      <thead><tr><th>Item</th><th>Description</th><th class="num">Price</th><th class="num">Quantity</th><th class="num">Total</th><th></th></tr></thead>
      <tbody>
      <c:forEach var="line" items="${cart.lines}">
        <tr data-item="${fn:escapeXml(line.itemId)}">
          <td class="mono"><a href="${ctx}/item?id=${fn:escapeXml(line.itemId)}"><c:out value="${line.itemId}"/></a></td>
          <td><c:out value="${line.description}"/></td>
          <td class="num"><shop:price value="${line.unitPrice}"/></td>
          <td class="num">
            <input class="qty" type="number" min="0" max="99" form="update-cart" aria-label="Quantity of ${fn:escapeXml(line.itemId)}"
                   name="quantity-${fn:escapeXml(line.itemId)}" value="${line.quantity}">
            <c:if test="${not empty requestScope.quantityErrors[line.itemId]}"><p class="field-error"><c:out value="${requestScope.quantityErrors[line.itemId]}"/></p></c:if>
          </td>
          <td class="num"><shop:price value="${line.total}"/></td>
          <td class="action">
            <form method="post" action="${ctx}/cart/remove">
              <shop:csrf/>
              <input type="hidden" name="itemId" value="${fn:escapeXml(line.itemId)}">
              <button type="submit" class="small secondary">Remove</button>
            </form>
          </td>
        </tr>
      </c:forEach>
      </tbody>
      <tfoot><tr><th colspan="4" class="num">Subtotal (${cart.itemCount} pieces)</th><th class="num" id="subtotal"><shop:price value="${cart.subtotal}"/></th><th></th></tr></tfoot>
    </table>
    <div class="actions">
      <form id="update-cart" method="post" action="${ctx}/cart/update">
        <shop:csrf/>
        <button type="submit" class="secondary" id="update">Update quantities</button>
      </form>
      <a class="button" href="${ctx}/checkout" id="checkout">Proceed to checkout</a>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
