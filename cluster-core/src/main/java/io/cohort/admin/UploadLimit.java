package io.cohort.admin;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * An upload's byte limit: {@link #cap} gives a stream that fails with {@link TooLarge} as soon as more
 * than the limit has been read, so a consumer copying it to disk stops there (and cleans up) instead
 * of filling the disk.
 */
final class UploadLimit {

    /** Thrown when an upload turns out larger than its limit. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(long limit) {
            super("the upload is larger than max-upload (" + limit + " bytes)");
        }
    }

    private final long maxBytes;

    UploadLimit(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be at least 1: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** Whether a declared Content-Length (negative: none declared) is already over the limit. */
    boolean refuses(long declaredLength) {
        return declaredLength > maxBytes;
    }

    TooLarge tooLarge() {
        return new TooLarge(maxBytes);
    }

    /** {@code in}, failing with {@link TooLarge} once more than the limit has been read from it. */
    InputStream cap(InputStream in) {
        return new FilterInputStream(in) {
            private long read;

            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    count(1);
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n > 0) {
                    count(n);
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = super.skip(n);
                count(skipped);
                return skipped;
            }

            private void count(long n) throws TooLarge {
                read += n;
                if (read > maxBytes) {
                    throw tooLarge();
                }
            }
        };
    }
}
