package io.cohort.jpetstore.data;

/** An order asked for more of an item than the store holds; nothing of the order was written. */
public class OutOfStockException extends Exception {
    private final String itemId;
    private final int available;

    public OutOfStockException(String itemId, int available) {
        super("only " + available + " left of " + itemId);
        this.itemId = itemId;
        this.available = available;
    }

    public String itemId() {
        return itemId;
    }

    public int available() {
        return available;
    }
}
