<c:set var="title" value="Sign on"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<section class="panel narrow">
  <h1>Sign on</h1>
  <c:if test="${not empty form.values.next}"><p class="lead">Please sign on to continue.</p></c:if>
  <form method="post" action="${ctx}/signon" novalidate>
    <shop:csrf/>
    <input type="hidden" name="next" value="${fn:escapeXml(form.values.next)}">
    <shop:field name="username" label="User name" required="true" autocomplete="username"/>
    <shop:field name="password" label="Password" type="password" required="true" autocomplete="current-password"/>
    <button type="submit" id="sign-on-submit">Sign on</button>
  </form>
  <p class="muted">New here? <a href="${ctx}/account/new">Create an account</a>. Demo account: j2ee / j2ee.</p>
</section>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
