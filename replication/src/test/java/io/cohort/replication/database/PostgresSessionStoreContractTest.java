package io.cohort.replication.database;

/**
 * The session store contract over the database transport on PostgreSQL 15 (Testcontainers, or the
 * local server), each test in a schema of its own.
 */
class PostgresSessionStoreContractTest extends DatabaseSessionStoreContractTest {

    @Override
    protected TestDatabase openDatabase() {
        return PostgresDatabase.open();
    }
}
