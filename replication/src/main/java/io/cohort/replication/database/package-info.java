/**
 * The {@code <database>} transport: sessions in two shared tables (one row per session, one per
 * attribute) over JDBC through a HikariCP pool of the transport's own. The engine's triggers, scopes
 * and delivery apply unchanged; write-quota and placement do not (the database is the one copy).
 * Ownership is a column of the session row: a node that loads a session claims it, and the old
 * owner's next write fails the optimistic owner/version check, which makes it evict its stale copy.
 */
package io.cohort.replication.database;
