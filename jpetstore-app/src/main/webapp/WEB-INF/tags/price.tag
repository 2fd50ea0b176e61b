<%@ tag body-content="empty" pageEncoding="UTF-8" trimDirectiveWhitespaces="true" description="An amount in US dollars" %>
<%@ attribute name="value" required="true" type="java.math.BigDecimal" %>
<%@ taglib prefix="fmt" uri="jakarta.tags.fmt" %>
<fmt:formatNumber value="${value}" type="currency" currencyCode="USD"/>
