package io.fixmatch.benchmarks.prober;

import io.fixmatch.loadgen.pacing.TimerSlack;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An independent open-loop latency prober of a FIX acceptor, to cross-check the load generator: it shares no code
 * with it (nor with the server: its FIX is written and read by hand here). It sends, at a fixed rate, a
 * NewOrderSingle far from the market then its OrderCancelRequest, alternately, and times every request from the
 * moment it was DUE (not sent) to its ExecutionReport: a late sender is charged to the result, never hidden.
 *
 * <p>Two phases, never at the same time: first the floor, the same byte stream at the same rate through a bare
 * loopback TCP echo in this process (the server idle); then the server. Both report the sender's own lag (send
 * start minus due), so a prober that could not keep its schedule shows it.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fixmatch.benchmarks.prober.OpenLoopProber \
 *     --port 9878 --rate 45000 --seconds 20 --warmup 5 [--server-pid PID] [--wait yield|spin|park]
 *     [--park-margin-us 5] [--echo-port PORT [--echo-pid PID]] [--freeze-server] [--syscalls]
 * </pre>
 * {@code --freeze-server} (with {@code --server-pid}) stops the server process (SIGSTOP) while the floor is measured
 * and continues it (SIGCONT) before the server phase: an idle server that busy-spins would otherwise take the CPU the
 * echo runs on, and the floor would not be measured alone.
 * {@code --echo-port} measures the floor against a {@link LoopbackEcho} process already listening there instead of
 * one in this process: to put the echo on the CPUs the server will have (the floor and the server alike pinned
 * apart from the prober with {@code taskset}).
 * {@code --wait} is how the sender waits for the next due time once it is within 300 µs: yield (the default) or spin
 * take a core whatever the rate; park sleeps to {@code --park-margin-us} before it and yields the rest, with the
 * sender's timer slack set to 1 ns (Linux's default 50 µs would make every park late by up to that much), so on a
 * machine whose cores the prober shares with the server it takes a fraction of a core. The sender's CPU time per
 * message is printed either way, and the send lag says whether the schedule was kept.
 * With {@code --server-pid} it also reports the server's context switches and CPU time per message (its own counters
 * in /proc, read before and after the server phase: {@link ProcessCost}); {@code --echo-pid} (the echo process at
 * {@code --echo-port}) the same for the echo over the floor phase; {@code --syscalls} adds each one's system calls
 * per message (perf stat). The last line ({@code cost: key=value ...}) repeats the figures for scripts.
 */
public final class OpenLoopProber {
    private static final byte SOH = 1;
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final ThreadMXBean SENDER_CPU = ManagementFactory.getThreadMXBean();

    private final String host;
    private final int port;
    private final int rate;
    private final int seconds;
    private final int warmupSeconds;
    private final String sender;
    private final String target;
    private final String symbol;
    private final String wait;
    private final long parkMarginNanos;
    private final int serverPid;
    private final int echoPort;
    private final int echoPid;
    private final boolean freezeServer;
    private final boolean countSyscalls;

    private OpenLoopProber(String[] args) {
        String h = "127.0.0.1";
        int p = 9878;
        int r = 45_000;
        int s = 20;
        int w = 5;
        String snd = "LOADGEN";
        String tgt = "FIXMATCH";
        String sym = "AAPL";
        String wt = "yield";
        long margin = 5;
        int pid = -1;
        int ep = 0;
        int epid = -1;
        boolean freeze = false;
        boolean syscalls = false;
        for (int i = 0; i < args.length; i += 2) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--host" -> h = value;
                case "--port" -> p = Integer.parseInt(value);
                case "--rate" -> r = Integer.parseInt(value);
                case "--seconds" -> s = Integer.parseInt(value);
                case "--warmup" -> w = Integer.parseInt(value);
                case "--sender" -> snd = value;
                case "--target" -> tgt = value;
                case "--symbol" -> sym = value;
                case "--wait" -> wt = value;
                case "--park-margin-us" -> margin = Long.parseLong(value);
                case "--server-pid" -> pid = Integer.parseInt(value);
                case "--echo-port" -> ep = Integer.parseInt(value);
                case "--echo-pid" -> epid = Integer.parseInt(value);
                case "--syscalls" -> {
                    syscalls = true;
                    i--; // a flag: no value follows
                }
                case "--freeze-server" -> {
                    freeze = true;
                    i--; // a flag: no value follows
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see the class comment)");
            }
        }
        host = h;
        port = p;
        rate = r;
        seconds = s;
        warmupSeconds = w;
        sender = snd;
        target = tgt;
        symbol = sym;
        if (!wt.equals("yield") && !wt.equals("spin") && !wt.equals("park")) {
            throw new IllegalArgumentException("--wait is yield, spin or park, not " + wt);
        }
        wait = wt;
        parkMarginNanos = TimeUnit.MICROSECONDS.toNanos(margin);
        serverPid = pid;
        echoPort = ep;
        if (freeze && pid <= 0) {
            throw new IllegalArgumentException("--freeze-server needs --server-pid");
        }
        freezeServer = freeze;
        if (epid > 0 && ep <= 0) {
            throw new IllegalArgumentException("--echo-pid needs --echo-port (the echo in this process has no cost of "
                + "its own)");
        }
        echoPid = epid;
        countSyscalls = syscalls;
    }

    public static void main(String[] args) throws Exception {
        new OpenLoopProber(args).run();
    }

    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "prober: %,d msg/s (new order and cancel alternately), %d s warm-up + %d s "
            + "measured per phase, wait=%s%s%n", rate, warmupSeconds, seconds, wait,
            wait.equals("park") ? " (margin " + parkMarginNanos / 1000 + " µs, timer slack " + TimerSlack.apply(1)
                + ")" : "");
        Result echo;
        if (freezeServer) {
            signalServer("STOP");
        }
        MachineCpu floorStart = MachineCpu.read();
        ProcessCost echoCost = ProcessCost.start(echoPid, countSyscalls);
        ProcessCost.Spent echoSpent;
        try {
            echo = floor();
            echoSpent = echoCost == null ? null : echoCost.stop(echo.sentInAll);
        } finally {
            if (freezeServer) {
                signalServer("CONT");
            }
        }
        MachineCpu floorEnd = MachineCpu.read();
        ProcessCost serverCost = ProcessCost.start(serverPid, countSyscalls);
        MachineCpu serverStart = MachineCpu.read();
        Result server = runPhase("server " + host + ":" + port, port, true);
        MachineCpu serverEnd = MachineCpu.read();
        ProcessCost.Spent serverSpent = serverCost == null ? null : serverCost.stop(server.sentInAll);

        System.out.println();
        System.out.printf(Locale.ROOT, "%-22s %10s %8s %8s %8s %9s %9s %9s%n", "round trip (us)", "count", "p50", "p90",
            "p99", "p99.9", "p99.99", "worst");
        print("echo floor", echo.all);
        print("new order -> ack", server.newAck);
        print("cancel -> ack", server.cancelAck);
        print("server, both", server.all);
        print("send lag (echo)", echo.sendLag);
        print("send lag (server)", server.sendLag);
        System.out.printf(Locale.ROOT, "sender CPU per message: echo %.1f µs, server %.1f µs%n",
            echo.senderCpuNanos / 1e3 / echo.sentInAll, server.senderCpuNanos / 1e3 / server.sentInAll);
        System.out.printf(Locale.ROOT, "achieved: echo %,.0f msg/s, server %,.0f msg/s; missing answers: %d%n",
            echo.achievedRate, server.achievedRate, server.missing);
        System.out.printf(Locale.ROOT, "server vs floor: p50 %.2fx, p99 %.2fx, p99.9 %.2fx%n",
            ratio(server.all, echo.all, 50), ratio(server.all, echo.all, 99), ratio(server.all, echo.all, 99.9));
        if (echoSpent != null) {
            System.out.println("echo process during its phase (warm-up included): " + echoSpent.describe());
        }
        if (serverSpent != null) {
            System.out.println("server during its phase (warm-up included): " + serverSpent.describe());
        }
        floorEnd.printDelta(floorStart, "floor", echo.sentInAll);
        serverEnd.printDelta(serverStart, "server", server.sentInAll);
        printCostLine(echo, server, echoSpent, serverSpent, floorEnd.busyCpus(floorStart),
            serverEnd.busyCpus(serverStart));
    }

    /**
     * One line of key=value pairs for scripts (scripts/cost.sh): the rate, each phase's percentiles (µs), the echo
     * process's and the server's CPU and system calls per message (NaN when not measured), the busy CPUs of the
     * whole machine in each phase.
     */
    private void printCostLine(Result echo, Result server, ProcessCost.Spent echoSpent, ProcessCost.Spent serverSpent,
                               double echoBusy, double serverBusy) {
        double nan = Double.NaN;
        System.out.printf(Locale.ROOT, "cost: rate=%d echo_p50=%.1f echo_p99=%.1f echo_p999=%.1f server_p50=%.1f "
                + "server_p99=%.1f server_p999=%.1f echo_cpu_us=%.2f server_cpu_us=%.2f echo_syscalls=%.2f "
                + "server_syscalls=%.2f echo_switches=%.2f server_switches=%.2f machine_busy_echo=%.2f "
                + "machine_busy_server=%.2f echo_faults=%.3f server_faults=%.3f missing=%d%n", rate,
            echo.all.getValueAtPercentile(50) / 1e3, echo.all.getValueAtPercentile(99) / 1e3,
            echo.all.getValueAtPercentile(99.9) / 1e3, server.all.getValueAtPercentile(50) / 1e3,
            server.all.getValueAtPercentile(99) / 1e3, server.all.getValueAtPercentile(99.9) / 1e3,
            echoSpent == null ? nan : echoSpent.cpuMicrosPerMessage(),
            serverSpent == null ? nan : serverSpent.cpuMicrosPerMessage(),
            echoSpent == null ? nan : echoSpent.syscallsPerMessage(),
            serverSpent == null ? nan : serverSpent.syscallsPerMessage(),
            echoSpent == null ? nan : echoSpent.switchesPerMessage(),
            serverSpent == null ? nan : serverSpent.switchesPerMessage(), echoBusy, serverBusy,
            echoSpent == null ? nan : echoSpent.faultsPerMessage(),
            serverSpent == null ? nan : serverSpent.faultsPerMessage(), server.missing);
    }

    /**
     * The whole machine's CPU from {@code /proc/stat} (every process: the prober, the echo or the server, and whatever
     * else runs): busy and total ticks of all CPUs, read at a phase's start and end.
     */
    private record MachineCpu(long busyTicks, long totalTicks, int cpus) {
        static MachineCpu read() throws IOException {
            String line = Files.readAllLines(Path.of("/proc/stat")).get(0); // cpu user nice system idle iowait ...
            String[] fields = line.trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < fields.length; i++) {
                total += Long.parseLong(fields[i]);
            }
            long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            return new MachineCpu(total - idle, total, Runtime.getRuntime().availableProcessors());
        }

        double busyCpus(MachineCpu start) {
            long total = totalTicks - start.totalTicks;
            return total == 0 ? 0 : cpus * (double) (busyTicks - start.busyTicks) / total;
        }

        void printDelta(MachineCpu start, String phase, long messages) {
            System.out.printf(Locale.ROOT, "machine during the %s phase (warm-up included): %.2f of %d CPUs busy,"
                + " %.1f us CPU per message%n", phase, busyCpus(start), cpus,
                (busyTicks - start.busyTicks) * 1e4 / messages); // USER_HZ: a tick is 10 ms
        }
    }

    /** The floor: the same stream through a bare echo, in this process or the echo process at --echo-port. */
    private Result floor() throws Exception {
        if (echoPort > 0) { // an echo process of its own, placed (taskset) where the server runs
            return runPhase("loopback echo (alone, port " + echoPort + ")", echoPort, false);
        }
        try (LoopbackEcho echoServer = LoopbackEcho.start(0)) {
            return runPhase("loopback echo (alone)", echoServer.port(), false);
        }
    }

    private void signalServer(String signal) throws IOException, InterruptedException {
        int status = new ProcessBuilder("kill", "-" + signal, Integer.toString(serverPid)).inheritIO().start().waitFor();
        if (status != 0) {
            throw new IllegalStateException("kill -" + signal + " " + serverPid + " exited with " + status);
        }
    }

    private static double ratio(Histogram a, Histogram b, double percentile) {
        return (double) a.getValueAtPercentile(percentile) / Math.max(1, b.getValueAtPercentile(percentile));
    }

    private static void print(String name, Histogram h) {
        System.out.printf(Locale.ROOT, "%-22s %,10d %8.1f %8.1f %8.1f %9.1f %9.1f %9.1f%n", name, h.getTotalCount(),
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getValueAtPercentile(99.9) / 1e3, h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3);
    }

    /** What one phase measured (only the messages due after the warm-up). */
    private static final class Result {
        final Histogram newAck = new Histogram(MAX_NANOS, 3);
        final Histogram cancelAck = new Histogram(MAX_NANOS, 3);
        final Histogram all = new Histogram(MAX_NANOS, 3);
        final Histogram sendLag = new Histogram(MAX_NANOS, 3);
        double achievedRate;
        long missing;
        long sent;
        long sentInAll;
        long senderCpuNanos;
    }

    /**
     * Sends the stream to {@code toPort} on schedule and times the answers. Against the server, the answers are
     * ExecutionReports; against the echo, the requests themselves come back. Either way each answer carries the
     * request's ClOrdID, "P" + its index in the schedule.
     */
    private Result runPhase(String name, int toPort, boolean fix) throws Exception {
        int warmup = rate * warmupSeconds;
        int total = warmup + rate * seconds;
        long interval = 1_000_000_000L / rate;
        long[] due = new long[total];
        Result result = new Result();
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress(host, toPort))) {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            MessageWriter writer = new MessageWriter(sender, target, symbol);
            Reader reader = new Reader(channel, due, warmup, total, result, writer, fix);
            Thread readerThread = new Thread(reader, "prober-reader");
            readerThread.setDaemon(true);
            readerThread.start();
            if (fix) {
                writer.logon();
                writer.writeTo(channel);
                if (!reader.loggedOn.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no Logon reply from " + host + ":" + toPort);
                }
            }
            System.out.printf("phase: %s ...%n", name);
            long cpuBefore = SENDER_CPU.getCurrentThreadCpuTime();
            long start = System.nanoTime() + 1_000_000;
            long measuredStart = start + warmup * interval;
            for (int i = 0; i < total; i++) {
                long when = start + i * interval;
                due[i] = when;
                waitUntil(when);
                long sendStart = System.nanoTime();
                if (i >= warmup) {
                    result.sendLag.recordValue(Math.min(MAX_NANOS, Math.max(0, sendStart - when)));
                }
                if (i % 2 == 0) {
                    writer.newOrder(i);
                } else {
                    writer.cancel(i, i - 1);
                }
                writer.writeTo(channel);
            }
            long sendEnd = System.nanoTime();
            result.senderCpuNanos = SENDER_CPU.getCurrentThreadCpuTime() - cpuBefore;
            result.sent = total - warmup;
            result.sentInAll = total;
            result.achievedRate = result.sent * 1e9 / (sendEnd - measuredStart);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reader.answered < total && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            result.missing = total - reader.answered;
            reader.stop = true;
            if (fix) {
                writer.logout();
                writer.writeTo(channel);
                Thread.sleep(200);
            }
        }
        return result;
    }

    /** Waits for a moment without parking past it: sleeps while far away, then spins (or yields) to the moment. */
    private void waitUntil(long when) {
        long remaining;
        while ((remaining = when - System.nanoTime()) > 0) {
            if (remaining > 300_000) {
                LockSupport.parkNanos(remaining - 200_000);
            } else if (wait.equals("park") && remaining > parkMarginNanos) {
                LockSupport.parkNanos(remaining - parkMarginNanos);
            } else if (wait.equals("spin")) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** Writes FIX 4.4 messages by hand into one reusable buffer: header, body, BodyLength, CheckSum. */
    private static final class MessageWriter {
        private final byte[] senderCompId;
        private final byte[] targetCompId;
        private final byte[] symbol;
        private final byte[] body = new byte[512];
        private final byte[] message = new byte[600];
        private final ByteBuffer out = ByteBuffer.wrap(message);
        private final byte[] timestamp = new byte[21];
        private long timestampMillis = -1;
        private int bodyLength;
        private int length;
        private long seqNum = 1;

        MessageWriter(String sender, String target, String symbol) {
            this.senderCompId = sender.getBytes(StandardCharsets.US_ASCII);
            this.targetCompId = target.getBytes(StandardCharsets.US_ASCII);
            this.symbol = symbol.getBytes(StandardCharsets.US_ASCII);
        }

        void logon() {
            header("A");
            text(98, "0");
            text(108, "30");
            text(141, "Y");
            finish();
        }

        void logout() {
            header("5");
            finish();
        }

        void heartbeat(byte[] testReqId, int from, int count) {
            header("0");
            tag(112);
            System.arraycopy(testReqId, from, body, bodyLength, count);
            bodyLength += count;
            body[bodyLength++] = SOH;
            finish();
        }

        /** A limit buy far below any market: it rests, and only its cancel takes it out. */
        void newOrder(int index) {
            header("D");
            id(11, index);
            bytes(55, symbol);
            text(54, "1");
            text(38, "1");
            text(40, "2");
            text(44, "1.00");
            text(59, "0");
            bytes(60, timestamp);
            finish();
        }

        void cancel(int index, int orderIndex) {
            header("F");
            id(11, index);
            id(41, orderIndex);
            bytes(55, symbol);
            text(54, "1");
            bytes(60, timestamp);
            finish();
        }

        synchronized void writeTo(SocketChannel channel) throws IOException {
            out.clear().limit(length);
            while (out.hasRemaining()) {
                channel.write(out);
            }
        }

        private void header(String msgType) {
            bodyLength = 0;
            refreshTimestamp();
            text(35, msgType);
            bytes(49, senderCompId);
            bytes(56, targetCompId);
            number(34, seqNum++);
            bytes(52, timestamp);
        }

        private void finish() {
            int i = 0;
            i = put(message, i, "8=FIX.4.4");
            message[i++] = SOH;
            i = put(message, i, "9=");
            i = putNumber(message, i, bodyLength);
            message[i++] = SOH;
            System.arraycopy(body, 0, message, i, bodyLength);
            i += bodyLength;
            int sum = 0;
            for (int k = 0; k < i; k++) {
                sum += message[k];
            }
            sum &= 0xFF;
            i = put(message, i, "10=");
            message[i++] = (byte) ('0' + sum / 100);
            message[i++] = (byte) ('0' + sum / 10 % 10);
            message[i++] = (byte) ('0' + sum % 10);
            message[i++] = SOH;
            length = i;
        }

        private void refreshTimestamp() {
            long millis = System.currentTimeMillis();
            if (millis != timestampMillis) {
                timestampMillis = millis;
                LocalDateTime t = LocalDateTime.ofEpochSecond(millis / 1000, (int) (millis % 1000) * 1_000_000,
                    ZoneOffset.UTC);
                put(timestamp, 0, String.format(Locale.ROOT, "%04d%02d%02d-%02d:%02d:%02d.%03d", t.getYear(),
                    t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond(), millis % 1000));
            }
        }

        private void tag(int tag) {
            bodyLength = putNumber(body, bodyLength, tag);
            body[bodyLength++] = '=';
        }

        private void text(int tag, String value) {
            tag(tag);
            bodyLength = put(body, bodyLength, value);
            body[bodyLength++] = SOH;
        }

        private void bytes(int tag, byte[] value) {
            tag(tag);
            System.arraycopy(value, 0, body, bodyLength, value.length);
            bodyLength += value.length;
            body[bodyLength++] = SOH;
        }

        private void number(int tag, long value) {
            tag(tag);
            bodyLength = putNumber(body, bodyLength, value);
            body[bodyLength++] = SOH;
        }

        private void id(int tag, int index) {
            tag(tag);
            body[bodyLength++] = 'P';
            bodyLength = putNumber(body, bodyLength, index);
            body[bodyLength++] = SOH;
        }

        private static int put(byte[] target, int at, String text) {
            for (int k = 0; k < text.length(); k++) {
                target[at++] = (byte) text.charAt(k);
            }
            return at;
        }

        private static int putNumber(byte[] target, int at, long value) {
            if (value == 0) {
                target[at++] = '0';
                return at;
            }
            int digits = 0;
            for (long v = value; v > 0; v /= 10) {
                digits++;
            }
            for (int k = digits - 1; k >= 0; k--) {
                target[at + k] = (byte) ('0' + value % 10);
                value /= 10;
            }
            return at + digits;
        }
    }

    /**
     * Reads the answers: splits the stream at each CheckSum field, takes the ClOrdID "P<index>" of each message and
     * records the time since that request was due. Against the server it answers TestRequests and takes only
     * ExecutionReports (New for an order, Canceled for a cancel).
     */
    private static final class Reader implements Runnable {
        final CountDownLatch loggedOn = new CountDownLatch(1);
        volatile int answered;
        volatile boolean stop;
        private final SocketChannel channel;
        private final long[] due;
        private final int warmup;
        private final boolean[] seen;
        private final Result result;
        private final MessageWriter writer;
        private final boolean fix;

        Reader(SocketChannel channel, long[] due, int warmup, int total, Result result, MessageWriter writer,
               boolean fix) {
            this.channel = channel;
            this.due = due;
            this.warmup = warmup;
            this.seen = new boolean[total];
            this.result = result;
            this.writer = writer;
            this.fix = fix;
        }

        @Override
        public void run() {
            byte[] data = new byte[1 << 20];
            ByteBuffer in = ByteBuffer.wrap(data);
            int start = 0;
            try {
                while (!stop) {
                    if (channel.read(in) < 0) {
                        return;
                    }
                    long now = System.nanoTime();
                    int end = in.position();
                    int messageEnd;
                    while ((messageEnd = endOfMessage(data, start, end)) > 0) {
                        onMessage(data, start, messageEnd, now);
                        start = messageEnd;
                    }
                    if (data.length - end < 8192) {
                        System.arraycopy(data, start, data, 0, end - start);
                        in.position(end - start);
                        start = 0;
                    }
                }
            } catch (IOException e) {
                if (!stop) {
                    System.err.println("prober: connection lost: " + e);
                }
            }
        }

        /** The index just past the message starting at {@code from} ("...SOH10=nnnSOH"), or -1 if incomplete. */
        private static int endOfMessage(byte[] data, int from, int end) {
            for (int k = from; k + 7 < end; k++) {
                if (data[k] == SOH && data[k + 1] == '1' && data[k + 2] == '0' && data[k + 3] == '='
                    && data[k + 7] == SOH) {
                    return k + 8;
                }
            }
            return -1;
        }

        private void onMessage(byte[] data, int from, int to, long now) throws IOException {
            byte msgType = valueByte(data, from, to, "35=");
            if (fix) {
                if (msgType == 'A') {
                    loggedOn.countDown();
                    return;
                }
                if (msgType == '1') {
                    int at = valueAt(data, from, to, "112=");
                    int length = at < 0 ? 0 : valueLength(data, at, to);
                    writer.heartbeat(data, Math.max(at, 0), length);
                    writer.writeTo(channel);
                    return;
                }
                if (msgType != '8') {
                    if (msgType == '3' || msgType == 'j' || msgType == '9' || (msgType == '5' && !stop)) {
                        System.err.println("prober: unexpected answer: "
                            + new String(data, from, to - from, StandardCharsets.US_ASCII).replace((char) SOH, '|'));
                    }
                    return;
                }
                byte execType = valueByte(data, from, to, "150=");
                if (execType != '0' && execType != '4') {
                    return;
                }
            }
            int at = valueAt(data, from, to, "11=");
            if (at < 0 || data[at] != 'P') {
                return;
            }
            int index = 0;
            for (int k = at + 1; k < to && data[k] != SOH; k++) {
                index = index * 10 + (data[k] - '0');
            }
            if (index >= seen.length || seen[index]) {
                return;
            }
            seen[index] = true;
            answered++;
            if (index >= warmup) {
                long latency = Math.min(MAX_NANOS, Math.max(1, now - due[index]));
                (index % 2 == 0 ? result.newAck : result.cancelAck).recordValue(latency);
                result.all.recordValue(latency);
            }
        }

        private static byte valueByte(byte[] data, int from, int to, String tagEquals) {
            int at = valueAt(data, from, to, tagEquals);
            return at < 0 ? 0 : data[at];
        }

        private static int valueLength(byte[] data, int at, int to) {
            int k = at;
            while (k < to && data[k] != SOH) {
                k++;
            }
            return k - at;
        }

        /** Where the value of the field "tag=" starts (the field must follow an SOH), or -1. */
        private static int valueAt(byte[] data, int from, int to, String tagEquals) {
            int n = tagEquals.length();
            outer:
            for (int k = from; k + n < to; k++) {
                if (data[k] != SOH) {
                    continue;
                }
                for (int j = 0; j < n; j++) {
                    if (data[k + 1 + j] != tagEquals.charAt(j)) {
                        continue outer;
                    }
                }
                return k + 1 + n;
            }
            return -1;
        }
    }
}
