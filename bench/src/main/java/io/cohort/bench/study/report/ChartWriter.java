package io.cohort.bench.study.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Renders {@link ChartSpec}s with XChart to {@code <name>.svg} (VectorGraphics2D) and {@code <name>.png},
 * headless: the JVM's {@code java.awt.headless} is set to true unless the caller chose otherwise.
 */
final class ChartWriter {

    static final int WIDTH = 900;
    static final int HEIGHT = 560;

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private static final Pattern LONG_DECIMAL = Pattern.compile("(\\d+\\.\\d{2})\\d+");

    private final Path dir;

    ChartWriter(Path dir) {
        this.dir = dir;
    }

    /** Writes the chart's SVG and PNG files into the folder. */
    void write(ChartSpec spec) {
        Chart<?, ?> chart = spec.bars() ? barChart(spec) : chart(spec);
        try {
            Files.createDirectories(dir);
            ByteArrayOutputStream svg = new ByteArrayOutputStream();
            VectorGraphicsEncoder.saveVectorGraphic(chart, svg, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            Files.writeString(dir.resolve(spec.name() + ".svg"), compact(svg.toString(StandardCharsets.UTF_8)),
                    StandardCharsets.UTF_8);
            BitmapEncoder.saveBitmap(chart, dir.resolve(spec.name() + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + spec.name() + " into " + dir, e);
        }
    }

    /**
     * Rounds every decimal number of the SVG to two places. XChart draws text as glyph outlines, whose
     * coordinates VectorGraphics2D writes with up to 15 decimals; at 1/100 pixel nothing visible changes
     * and the file shrinks to about half. The SVG has no text nodes (only numbers in attributes).
     */
    static String compact(String svg) {
        return LONG_DECIMAL.matcher(svg).replaceAll("$1");
    }

    /** The look every chart of the report shares: white, light grid, sans-serif, legend below. */
    private static void houseStyle(AxesChartStyler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(220, 220, 220));
        styler.setPlotBorderVisible(true);
        styler.setChartTitleBoxVisible(false);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
    }

    /** A bar chart: categories along x, one colour per series. */
    static CategoryChart barChart(ChartSpec spec) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle(spec.xAxis()).yAxisTitle(spec.yAxis()).build();
        var styler = chart.getStyler();
        houseStyle(styler);
        styler.setLegendBorderColor(Color.WHITE);
        styler.setLabelsVisible(false); // the report's tables have the figures; XChart's labels print 15 decimals
        styler.setXAxisLabelRotation(20);
        for (ChartSpec.Line line : spec.lines()) {
            chart.addSeries(line.name(), spec.categories(), line.y());
        }
        return chart;
    }

    static XYChart chart(ChartSpec spec) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle(spec.xAxis()).yAxisTitle(spec.yAxis()).build();
        var styler = chart.getStyler();
        houseStyle(styler);
        styler.setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setLegendBorderColor(Color.WHITE);
        styler.setMarkerSize(7);
        styler.setYAxisMin(0.0);
        if (spec.integerX()) {
            styler.setXAxisDecimalPattern("0");
        }
        for (ChartSpec.Line line : spec.lines()) {
            XYSeries series = chart.addSeries(line.name(), line.x(), line.y());
            series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            switch (line.style()) {
                case DATA -> series.setLineWidth(2f);
                case TIMELINE -> {
                    series.setMarker(SeriesMarkers.NONE);
                    series.setLineWidth(1.5f);
                }
                case REFERENCE -> {
                    series.setMarker(SeriesMarkers.NONE);
                    series.setLineColor(Color.GRAY);
                    series.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                            new float[] {6f, 4f}, 0f));
                }
                case EVENT -> {
                    series.setMarker(SeriesMarkers.NONE);
                    series.setLineColor(new Color(200, 0, 0));
                    series.setLineWidth(2f);
                }
            }
        }
        return chart;
    }
}
