<%@ tag body-content="empty" pageEncoding="UTF-8" trimDirectiveWhitespaces="true"
        description="The eight address fields; with a prefix they are named prefix.firstName and so on" %>
<%@ attribute name="prefix" %>
<%@ attribute name="section" description="autocomplete section: billing or shipping" %>
<%@ taglib prefix="c" uri="jakarta.tags.core" %>
<%@ taglib prefix="shop" tagdir="/WEB-INF/tags" %>
<c:set var="p" value="${empty prefix ? '' : prefix += '.'}"/>
<c:set var="ac" value="${empty section ? '' : section += ' '}"/>
<div class="grid-2">
  <shop:field name="${p}firstName" label="First name" required="true" autocomplete="${ac}given-name"/>
  <shop:field name="${p}lastName" label="Last name" required="true" autocomplete="${ac}family-name"/>
</div>
<shop:field name="${p}address1" label="Address" required="true" autocomplete="${ac}address-line1"/>
<shop:field name="${p}address2" label="Address line 2" autocomplete="${ac}address-line2"/>
<div class="grid-3">
  <shop:field name="${p}city" label="City" required="true" autocomplete="${ac}address-level2"/>
  <shop:field name="${p}state" label="State" required="true" autocomplete="${ac}address-level1"/>
  <shop:field name="${p}zip" label="ZIP code" required="true" autocomplete="${ac}postal-code"/>
</div>
<shop:field name="${p}country" label="Country" required="true" autocomplete="${ac}country-name"/>
