<c:set var="title" value="Your orders"/>
<%@ include file="/WEB-INF/jsp/header.jspf" %>
<h1>Your orders</h1>
<c:choose>
  <c:when test="${empty orders}"><p class="lead" id="no-orders">You have not ordered anything yet.</p></c:when>
  <c:otherwise>
    <table class="list" id="orders">
      <thead><tr><th>Order</th><th>Placed</th><th class="num">Lines</th><th class="num">Total</th></tr></thead>
      <tbody>
      <c:forEach var="o" items="${orders}">
        <tr>
          <td class="mono"><a href="${ctx}/orders/view?id=${o.id}">#${o.id}</a></td>
          <td><c:out value="${o.placedAtText}"/></td>
          <td class="num">${o.lineCount}</td>
          <td class="num"><shop:price value="${o.total}"/></td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
  </c:otherwise>
</c:choose>
<%@ include file="/WEB-INF/jsp/footer.jspf" %>
