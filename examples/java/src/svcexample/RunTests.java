package svcexample;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A small test runner: each {@link Test} method of each class runs on a fresh instance (tests
 * close what they open with try-with-resources). Prints one line per test, the failure's stack
 * trace, and exits 1 when any test failed.
 */
public final class RunTests {
    private static final List<Class<?>> SUITES = List.of(PaymentWebhookTest.class, SubMerchantOtpTest.class, SignatureRuleTest.class);

    public static void main(String[] args) throws Exception {
        int run = 0;
        int failed = 0;
        for (Class<?> suite : SUITES) {
            Method[] tests = Arrays.stream(suite.getDeclaredMethods()).filter(m -> m.isAnnotationPresent(Test.class)).sorted(Comparator.comparing(Method::getName)).toArray(Method[]::new);
            for (Method test : tests) {
                run++;
                String name = suite.getSimpleName() + "." + test.getName();
                Throwable failure = runOne(suite, test);
                if (failure == null) {
                    System.out.println("ok   " + name);
                } else {
                    failed++;
                    System.out.println("FAIL " + name);
                    failure.printStackTrace(System.out);
                }
            }
        }
        System.out.println(run + " tests, " + failed + " failed");
        System.out.flush();
        System.exit(failed == 0 ? 0 : 1);
    }

    private static Throwable runOne(Class<?> suite, Method test) {
        try {
            test.invoke(suite.getDeclaredConstructor().newInstance());
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return e;
        }
    }
}
