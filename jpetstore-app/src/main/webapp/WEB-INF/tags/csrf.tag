<%@ tag body-content="empty" pageEncoding="UTF-8" trimDirectiveWhitespaces="true"
        description="The hidden anti-forgery field every posting form carries" %>
<input type="hidden" name="_csrf" value="${requestScope.csrf}">
