package svcexample;

import java.util.Objects;

/** Assertions: each failure is an AssertionError whose message says what was expected. */
final class Check {
    private Check() {}

    static void equal(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual)) throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
    }

    static void isTrue(boolean condition, String message) {
        if (!condition) throw new AssertionError(message);
    }

    /** Runs {@code action} and returns what it threw, which must be an instance of {@code type}. */
    static <T extends Throwable> T throwsA(Class<T> type, Action action) {
        try {
            action.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) return type.cast(t);
            throw new AssertionError("expected " + type.getSimpleName() + " but got " + t, t);
        }
        throw new AssertionError("expected " + type.getSimpleName() + " but nothing was thrown");
    }

    interface Action {
        void run() throws Throwable;
    }
}
