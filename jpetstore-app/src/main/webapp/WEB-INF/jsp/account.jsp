<c:set var="title" value="${isNew ? 'Create an account' : 'Your account'}"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<section class="panel">
  <h1><c:out value="${title}"/></h1>
  <c:if test="${not form.valid}"><p class="alert" role="alert">Please correct the fields marked below.</p></c:if>
  <form method="post" action="${ctx}${isNew ? '/account/new' : '/account/edit'}" novalidate>
    <shop:csrf/>
    <fieldset>
      <legend>Sign-on</legend>
      <c:choose>
        <c:when test="${isNew}"><shop:field name="username" label="User name" required="true" autocomplete="username"/></c:when>
        <c:otherwise><p>User name: <strong id="username"><c:out value="${form.values.username}"/></strong></p></c:otherwise>
      </c:choose>
      <div class="grid-2">
        <shop:field name="password" label="${isNew ? 'Password' : 'New password (leave empty to keep yours)'}" type="password" required="${isNew}" autocomplete="new-password"/>
        <shop:field name="repeatedPassword" label="Repeat password" type="password" required="${isNew}" autocomplete="new-password"/>
      </div>
    </fieldset>
    <fieldset>
      <legend>Contact</legend>
      <div class="grid-2">
        <shop:field name="email" label="E-mail" type="email" required="true" autocomplete="email"/>
        <shop:field name="phone" label="Phone" type="tel" required="true" autocomplete="tel"/>
      </div>
      <div class="field${empty form.errors.favouriteCategory ? '' : ' invalid'}">
        <label for="f-favouriteCategory">Favourite category</label>
        <select id="f-favouriteCategory" name="favouriteCategory">
          <option value="">None</option>
          <c:forEach var="c" items="${categories}">
            <option value="${fn:escapeXml(c.id)}" ${c.id == form.values.favouriteCategory ? 'selected' : ''}><c:out value="${c.name}"/></option>
          </c:forEach>
        </select>
        <c:if test="${not empty form.errors.favouriteCategory}"><p class="field-error"><c:out value="${form.errors.favouriteCategory}"/></p></c:if>
      </div>
    </fieldset>
    <fieldset>
      <legend>Address</legend>
      <shop:address/>
    </fieldset>
    <button type="submit" id="save-account">${isNew ? 'Create account' : 'Save changes'}</button>
  </form>
</section>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
