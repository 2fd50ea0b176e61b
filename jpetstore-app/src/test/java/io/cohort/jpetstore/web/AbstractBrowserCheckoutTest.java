package io.cohort.jpetstore.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.cohort.jpetstore.testing.ShopHost;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A customer's whole visit in headless Chromium, on whatever host a subclass starts (an embedded
 * Jetty here; a Cohort cluster behind its balancer elsewhere) (Debian's chromium and chromium-driver, driven through Selenium
 * with explicit paths so that nothing is downloaded): sign on, search, open an item, put two items in the cart,
 * change a quantity, check out, and find the order in the history. Screenshots of the key pages go to
 * target/screenshots/.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractBrowserCheckoutTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final Path screenshots;
    private ShopHost server;
    private ChromeDriverService service;
    private WebDriver browser;
    private WebDriverWait wait;

    /** @param screenshots where the key pages' screenshots go */
    protected AbstractBrowserCheckoutTest(Path screenshots) {
        this.screenshots = screenshots;
    }

    /** Starts the shop; closing the host stops everything it started (servers, database). */
    protected abstract ShopHost startShop() throws Exception;

    /**
     * Runs after two items are in the cart and a quantity was changed, before checking out; e.g. a
     * cluster test kills the node that owns the session here. The browser is at the cart page.
     */
    protected void betweenCartAndCheckout(WebDriver browser) throws Exception {
    }

    @BeforeAll
    void startShopAndBrowser() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("The browser test needs Debian's Chromium and ChromeDriver at " + CHROMIUM + " and " + CHROMEDRIVER
                    + ". Install them with: apt-get update && apt-get install -y chromium chromium-driver");
        }
        Files.createDirectories(screenshots);
        server = startShop();
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .withLogOutput(OutputStream.nullOutputStream()).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1280,900",
                "--user-data-dir=" + Files.createTempDirectory(Path.of("target"), "chromium-profile-").toAbsolutePath());
        browser = new ChromeDriver(service, options);
        browser.manage().window().setSize(new Dimension(1280, 900));
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
        wait = new WebDriverWait(browser, Duration.ofSeconds(15));
    }

    @AfterAll
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void customerSignsOnShopsChecksOutAndFindsTheOrderInTheHistory() throws Exception {
        browser.get(server.uri("/").toString());
        browser.findElement(By.id("sign-on")).click();
        waitForTitle("Sign on");
        type("f-username", "j2ee");
        type("f-password", "j2ee");
        screenshot("01-sign-on");
        browser.findElement(By.id("sign-on-submit")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.className("notice"), "You are signed on."));
        screenshot("02-home-signed-on");

        search("bulldog");
        screenshot("03-search-results");
        browser.findElement(By.linkText("Bulldog")).click();
        waitForTitle("Bulldog");
        browser.findElement(By.linkText("Male Adult Bulldog")).click();
        waitForTitle("Male Adult Bulldog");
        assertThat(browser.findElement(By.id("price")).getText()).isEqualTo("$18.50");
        screenshot("04-item");
        browser.findElement(By.id("add-to-cart")).click();
        waitForTitle("Your cart");

        search("angelfish");
        browser.findElement(By.linkText("Angelfish")).click();
        waitForTitle("Angelfish");
        WebElement smallAngelfish = browser.findElement(By.xpath("//tr[td//a[text()='EST-2']]//button"));
        smallAngelfish.click();
        waitForTitle("Your cart");
        assertThat(browser.findElement(By.id("subtotal")).getText()).isEqualTo("$35.00");

        WebElement quantity = browser.findElement(By.name("quantity-EST-2"));
        quantity.clear();
        quantity.sendKeys("3");
        browser.findElement(By.id("update")).click();
        wait.until(ExpectedConditions.textToBe(By.id("subtotal"), "$68.00"));
        screenshot("05-cart");
        betweenCartAndCheckout(browser);

        browser.findElement(By.id("checkout")).click();
        waitForTitle("Checkout: payment");
        type("f-cardNumber", "4111 1111 1111 1111");
        type("f-expiry", YearMonth.now().plusYears(2).format(DateTimeFormatter.ofPattern("MM/yyyy")));
        screenshot("06-checkout-payment");
        browser.findElement(By.id("continue")).click();
        waitForTitle("Checkout: confirm");
        assertThat(browser.findElement(By.id("total")).getText()).isEqualTo("$68.00");
        screenshot("07-checkout-confirm");
        browser.findElement(By.id("place-order")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.className("notice"), "Your order is placed."));
        String orderId = browser.findElement(By.id("order")).getAttribute("data-order-id");
        screenshot("08-order");

        browser.findElement(By.linkText("My orders")).click();
        waitForTitle("Your orders");
        assertThat(browser.findElement(By.id("orders")).getText()).contains("#" + orderId).contains("$68.00");
        screenshot("09-order-history");
    }

    private void search(String keywords) {
        WebElement box = browser.findElement(By.name("keywords"));
        box.clear();
        box.sendKeys(keywords);
        box.submit();
        waitForTitle("Search");
    }

    private void type(String id, String text) {
        WebElement field = browser.findElement(By.id(id));
        field.clear();
        field.sendKeys(text);
    }

    private void waitForTitle(String title) {
        wait.until(ExpectedConditions.titleIs(title + " · JPetStore"));
    }

    private void screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
