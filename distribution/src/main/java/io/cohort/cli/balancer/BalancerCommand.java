package io.cohort.cli.balancer;

import io.cohort.balancer.BalancerServer;
import io.cohort.cli.ExitCode;
import io.cohort.cli.Main;
import io.cohort.config.BalancerConfig;
import io.cohort.config.ConfigException;
import io.cohort.config.ConfigLoader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cohort balancer}: runs the load balancer described by the {@code <balancer>} element of a
 * configuration file, in the foreground until SIGTERM or Ctrl-C, which stop it gracefully.
 */
@Command(name = "balancer",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Runs a Cohort load balancer in the foreground until it is stopped (SIGTERM, Ctrl-C).",
        footerHeading = "%nExamples:%n",
        footer = {
            "  cohort balancer --config conf/balancer.xml",
            "",
            "The file's <balancer> element lists the members, the policy (e.g. roundrobin:local) and the",
            "balancer's own host; see docs/configuration.md. A mistake prints file:line:column and exits with 2."})
public final class BalancerCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(BalancerCommand.class);

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE",
            description = "A configuration file with a <balancer> element (urn:cohort:config:1).")
    Path config;

    @Override
    public Integer call() throws Exception {
        BalancerConfig configuration;
        try {
            configuration = ConfigLoader.loadBalancer(config);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return ExitCode.USAGE;
        }
        BalancerServer balancer;
        try {
            balancer = BalancerServer.start(configuration);
        } catch (Exception e) {
            LOG.error("Balancer {} failed to start", configuration.name(), e);
            spec.commandLine().getErr().println("cohort balancer: " + configuration.name() + " failed to start: "
                    + e.getMessage());
            return ExitCode.FAILURE;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(balancer::stop, "cohort-balancer-shutdown"));
        spec.commandLine().getOut().printf("Balancer %s (host %s, %s) at %s, admin at %s%n", configuration.name(),
                configuration.host(), configuration.policy().xmlName(), balancer.uri(), balancer.adminUri());
        spec.commandLine().getOut().flush();
        balancer.join();
        return ExitCode.OK;
    }
}
