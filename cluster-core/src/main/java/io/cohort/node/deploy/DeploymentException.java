package io.cohort.node.deploy;

/** A WAR that could not be deployed; the previous version, if any, keeps serving. */
public final class DeploymentException extends Exception {

    public DeploymentException(String message, Throwable cause) {
        super(message, cause);
    }

    public DeploymentException(String message) {
        super(message);
    }
}
