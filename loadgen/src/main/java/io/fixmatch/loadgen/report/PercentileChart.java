package io.fixmatch.loadgen.report;

import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/**
 * The percentile chart of the report, drawn by XChart as a PNG: latency (µs, log scale) against percentile on the
 * usual "number of nines" scale (90%, 99%, 99.9%, ... equally spaced), one line per probe, from HdrHistogram's values at each percentile.
 */
public final class PercentileChart {
    /** The x axis goes to 99.999% (five nines), in twentieths of a nine. */
    private static final double MAX_NINES = 5;
    private static final int STEPS_PER_NINE = 20;

    private PercentileChart() {
    }

    /** The chart of every probe with samples, as PNG bytes. */
    public static byte[] png(String title, Map<String, Histogram> probes) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(500).title(title).xAxisTitle("percentile")
            .yAxisTitle("round trip (µs)").build();
        chart.getStyler().setYAxisLogarithmic(true).setYAxisDecimalPattern("#,##0.#")
            .setLegendPosition(Styler.LegendPosition.OutsideE).setMarkerSize(0);
        // XChart offers every x value as a tick; only whole nines get a label.
        chart.setCustomXAxisTickLabelsFormatter(nines -> Math.abs(nines - Math.rint(nines)) < 1e-9 ? label(nines) : "");
        int points = (int) (MAX_NINES * STEPS_PER_NINE) + 1;
        for (Map.Entry<String, Histogram> probe : probes.entrySet()) {
            Histogram histogram = probe.getValue();
            if (histogram.getTotalCount() == 0) {
                continue;
            }
            double[] nines = new double[points];
            double[] micros = new double[points];
            for (int i = 0; i < points; i++) {
                nines[i] = (double) i / STEPS_PER_NINE;
                micros[i] = Math.max(0.1, histogram.getValueAtPercentile(percentile(nines[i])) / 1000.0);
            }
            chart.addSeries(probe.getKey(), nines, micros).setMarker(SeriesMarkers.NONE);
        }
        return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    }

    private static double percentile(double nines) {
        return 100 - 100 / Math.pow(10, nines);
    }

    /** A whole number of nines as a readable percentile: 0%, 90%, 99%, 99.9%, 99.99%. */
    static String label(double nines) {
        int decimals = Math.max(0, (int) Math.rint(nines) - 1);
        return new BigDecimal(percentile(nines)).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros()
            .toPlainString() + "%";
    }
}
