package io.cohort.jpetstore.data;

import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Address;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.Optional;
import javax.sql.DataSource;

/** Reads, checks and writes customer accounts. Passwords go in as text and are stored only as hashes. */
public final class AccountDao {
    private static final String PROFILE_COLUMNS = "username, email, phone, first_name, last_name, address1,"
            + " address2, city, state, zip, country, favourite_category";

    private final DataSource dataSource;
    private final SqlRunner sql;

    public AccountDao(DataSource dataSource) {
        this.dataSource = dataSource;
        this.sql = new SqlRunner(dataSource);
    }

    public Optional<Account> find(String username) {
        return sql.optional("SELECT " + PROFILE_COLUMNS + " FROM account WHERE username = ?", AccountDao::account,
                username);
    }

    /** The account if the password is right; a wrong user name and a wrong password cost the same time. */
    public Optional<Account> authenticate(String username, String password) {
        Optional<String> hash = sql.optional("SELECT password_hash FROM account WHERE username = ?",
                rs -> rs.getString(1), username);
        if (hash.isEmpty()) {
            PasswordHasher.verifyDecoy(password);
            return Optional.empty();
        }
        return PasswordHasher.matches(password, hash.get()) ? find(username) : Optional.empty();
    }

    public void create(Account account, String password) throws UsernameTakenException {
        try (Connection c = dataSource.getConnection()) {
            insert(c, account, PasswordHasher.hash(password));
        } catch (SQLException e) {
            if (SqlRunner.isUniqueViolation(e)) {
                throw new UsernameTakenException(account.username());
            }
            throw new DataAccessException("creating account " + account.username() + " failed", e);
        }
    }

    /** Saves the profile; a non-empty {@code newPassword} replaces the password. */
    public void update(Account account, Optional<String> newPassword) {
        String sqlText = "UPDATE account SET email = ?, phone = ?, first_name = ?, last_name = ?, address1 = ?,"
                + " address2 = ?, city = ?, state = ?, zip = ?, country = ?, favourite_category = ?"
                + (newPassword.isPresent() ? ", password_hash = ?" : "") + " WHERE username = ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sqlText)) {
            int next = bindProfile(ps, 1, account);
            if (newPassword.isPresent()) {
                ps.setString(next++, PasswordHasher.hash(newPassword.get()));
            }
            ps.setString(next, account.username());
            if (ps.executeUpdate() != 1) {
                throw new DataAccessException("no account " + account.username() + " to update");
            }
        } catch (SQLException e) {
            throw new DataAccessException("updating account " + account.username() + " failed", e);
        }
    }

    static void insert(Connection c, Account account, String passwordHash) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(insertSql())) {
            bindInsert(ps, account, passwordHash);
            ps.executeUpdate();
        }
    }

    static String insertSql() {
        return "INSERT INTO account (email, phone, first_name, last_name, address1, address2, city, state, zip,"
                + " country, favourite_category, username, password_hash, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    }

    static void bindInsert(PreparedStatement ps, Account account, String passwordHash) throws SQLException {
        int next = bindProfile(ps, 1, account);
        ps.setString(next++, account.username());
        ps.setString(next++, passwordHash);
        ps.setTimestamp(next, Timestamp.valueOf(LocalDateTime.now()));
    }

    private static int bindProfile(PreparedStatement ps, int first, Account a) throws SQLException {
        Address ad = a.address();
        int i = first;
        ps.setString(i++, a.email());
        ps.setString(i++, a.phone());
        ps.setString(i++, ad.firstName());
        ps.setString(i++, ad.lastName());
        ps.setString(i++, ad.line1());
        ps.setString(i++, ad.line2());
        ps.setString(i++, ad.city());
        ps.setString(i++, ad.state());
        ps.setString(i++, ad.zip());
        ps.setString(i++, ad.country());
        ps.setString(i++, a.favouriteCategoryId().isEmpty() ? null : a.favouriteCategoryId());
        return i;
    }

    private static Account account(ResultSet rs) throws SQLException {
        Address address = new Address(rs.getString("first_name"), rs.getString("last_name"),
                rs.getString("address1"), rs.getString("address2"), rs.getString("city"), rs.getString("state"),
                rs.getString("zip"), rs.getString("country"));
        return new Account(rs.getString("username"), rs.getString("email"), rs.getString("phone"), address,
                rs.getString("favourite_category"));
    }
}
