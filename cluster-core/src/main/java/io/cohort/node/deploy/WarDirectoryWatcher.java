package io.cohort.node.deploy;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.util.Scanner;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hot deployment from the node's {@code webapps/} directory: a WAR dropped there is deployed, a
 * replaced one is redeployed, a removed one is undeployed, without restarting the node. Files are
 * acted on only once they stopped changing for a scan interval, so a WAR that is still being copied
 * is never deployed half-written. A WAR that fails to deploy is logged and retried when it changes.
 */
public final class WarDirectoryWatcher extends AbstractLifeCycle {

    private static final Logger LOG = LoggerFactory.getLogger(WarDirectoryWatcher.class);

    private final Path directory;
    private final ApplicationDeployer deployer;
    private final Duration interval;
    private Scanner scanner;

    public WarDirectoryWatcher(Path directory, ApplicationDeployer deployer, Duration interval) {
        this.directory = directory;
        this.deployer = deployer;
        this.interval = interval;
    }

    /** Deploys every WAR present now, synchronously; failures are logged and do not stop the others. */
    public List<ApplicationInfo> deployExisting() throws IOException {
        Files.createDirectories(directory);
        List<ApplicationInfo> deployedNow = new ArrayList<>();
        try (DirectoryStream<Path> wars = Files.newDirectoryStream(directory, "*.war")) {
            for (Path war : wars) {
                deployQuietly(war).ifPresent(deployedNow::add);
            }
        }
        try (DirectoryStream<Path> directories = Files.newDirectoryStream(directory, Files::isDirectory)) {
            for (Path exploded : directories) {
                LOG.warn("{} is a directory: only WAR files are deployed, so it is not (to deploy it, pack it: "
                        + "jar cf {}.war -C {} .)", exploded, exploded.getFileName(), exploded);
            }
        }
        return deployedNow;
    }

    @Override
    protected void doStart() throws Exception {
        if (interval.isZero()) {
            LOG.info("Hot deployment disabled (scan-interval 0s)");
            return;
        }
        Files.createDirectories(directory); // the scanner refuses a directory that does not exist (yet)
        scanner = new Scanner();
        scanner.setScanInterval((int) Math.max(1, (interval.toMillis() + 999) / 1000));
        scanner.setReportExistingFilesOnStartup(false);
        scanner.addDirectory(directory).include(directory.getFileSystem().getPathMatcher("glob:**.war"));
        scanner.addListener(new Scanner.DiscreteListener() {
            @Override
            public void pathAdded(Path path) {
                deployQuietly(path);
            }

            @Override
            public void pathChanged(Path path) {
                deployQuietly(path);
            }

            @Override
            public void pathRemoved(Path path) {
                try {
                    deployer.undeploy(ApplicationName.ofWar(path));
                } catch (IllegalArgumentException e) {
                    LOG.debug("ignoring {}: {}", path, e.getMessage());
                }
            }
        });
        scanner.start();
        LOG.info("Watching {} for WARs every {}s", directory, scanner.getScanInterval());
    }

    @Override
    protected void doStop() throws Exception {
        if (scanner != null) {
            scanner.stop();
            scanner = null;
        }
    }

    /** Runs one scan now (tests and the admin API use it to avoid waiting for the next interval). */
    public void scanNow() {
        if (scanner != null) {
            scanner.nudge();
        }
    }

    private java.util.Optional<ApplicationInfo> deployQuietly(Path war) {
        try {
            return java.util.Optional.of(deployer.deploy(war));
        } catch (DeploymentException e) {
            LOG.error("Could not deploy {}: {}", war.getFileName(), e.getMessage(), e.getCause());
            return java.util.Optional.empty();
        }
    }
}
