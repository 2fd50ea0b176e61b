<c:set var="title" value="Checkout: payment"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<ol class="steps"><li class="current">Payment and billing</li><li>Shipping</li><li>Confirm</li></ol>
<section class="panel">
  <h1>Payment and billing</h1>
  <p class="lead">${cart.itemCount} pieces, subtotal <strong><shop:price value="${cart.subtotal}"/></strong>.</p>
  <c:if test="${not form.valid}"><p class="alert" role="alert">Please correct the fields marked below.</p></c:if>
  <form method="post" action="${ctx}/checkout" novalidate>
    <shop:csrf/>
    <fieldset>
      <legend>Card</legend>
      <div class="grid-3">
        <div class="field${empty form.errors.cardType ? '' : ' invalid'}">
          <label for="f-cardType">Card type <span class="req" aria-hidden="true">*</span></label>
          <select id="f-cardType" name="cardType" required>
            <c:forEach var="t" items="${cardTypes}">
              <option ${t == form.values.cardType ? 'selected' : ''}><c:out value="${t}"/></option>
            </c:forEach>
          </select>
          <c:if test="${not empty form.errors.cardType}"><p class="field-error"><c:out value="${form.errors.cardType}"/></p></c:if>
        </div>
        <shop:field name="cardNumber" label="Card number" required="true" autocomplete="cc-number" placeholder="4111 1111 1111 1111"/>
        <shop:field name="expiry" label="Expiry (MM/YYYY)" required="true" autocomplete="cc-exp" placeholder="12/2030"/>
      </div>
    </fieldset>
    <fieldset>
      <legend>Billing address</legend>
      <shop:address prefix="bill" section="billing"/>
    </fieldset>
    <label class="check"><input type="checkbox" name="shipElsewhere" id="ship-elsewhere" ${empty form.values.shipElsewhere ? '' : 'checked'}> Ship to a different address</label>
    <div class="actions">
      <a class="button secondary" href="${ctx}/cart">Back to cart</a>
      <button type="submit" id="continue">Continue</button>
    </div>
  </form>
</section>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
