<c:set var="title" value="Checkout: shipping"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<ol class="steps"><li class="done">Payment and billing</li><li class="current">Shipping</li><li>Confirm</li></ol>
<section class="panel">
  <h1>Shipping address</h1>
  <c:if test="${not form.valid}"><p class="alert" role="alert">Please correct the fields marked below.</p></c:if>
  <form method="post" action="${ctx}/checkout/shipping" novalidate>
    <shop:csrf/>
    <shop:address prefix="ship" section="shipping"/>
    <div class="actions">
      <a class="button secondary" href="${ctx}/checkout">Back</a>
      <button type="submit" id="continue">Continue</button>
    </div>
  </form>
</section>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
