package io.cohort.bench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StudyFindingsTest {

    @Test
    void aRunWithTheStudysShapesReproducesEveryFinding() {
        assertThat(new StudyFindings(SyntheticRun.studyShaped().data()).evaluate())
                .extracting(Finding::id, Finding::verdict)
                .allSatisfy(row -> assertThat(row.toList().get(1)).as(row.toList().get(0).toString())
                        .isEqualTo(Verdict.REPRODUCED));
    }

    @Test
    void aQuickRunAtTwoNodesAndMediumLoadSaysWhatItCannotShow() {
        SyntheticRun quick = baseline("medium")
                .add("2211", 2, "medium", 192, 11, 46, 2000).add("1211", 2, "medium", 190, 11, 46, 2050)
                .add("2211wq2", 2, "medium", 191, 11, 46, 2010).add("2211wq3", 2, "medium", 191, 11, 46, 1990);

        var findings = new StudyFindings(quick.data()).evaluate();

        Finding f3 = findings.get(2);
        assertThat(f3.verdict()).isEqualTo(Verdict.PARTLY);
        assertThat(f3.checks()).filteredOn(c -> c.outcome() == Check.Outcome.NOT_MEASURED).singleElement()
                .satisfies(c -> assertThat(c.evidence()).contains("needs 2211 at two or more sizes of ≥ 2 nodes"));
        assertThat(findings.get(3).verdict()).isEqualTo(Verdict.NOT_MEASURED);
        assertThat(findings.get(10).verdict()).isEqualTo(Verdict.PARTLY);
        assertThat(findings.get(11).checks().get(0).evidence()).startsWith("needs a high load");
    }

    @Test
    void triggerBytesInTheStudysOrderAreReproduced() {
        SyntheticRun run = baseline("medium")
                .add("2311", 2, "medium", 198, 10, 41, 70)
                .add("2211", 2, "medium", 192, 11, 46, 2000)
                .add("2111", 2, "medium", 180, 14, 55, 2600);

        assertThat(finding(run, "F5").verdict()).isEqualTo(Verdict.REPRODUCED);
    }

    @Test
    void triggerBytesOutOfOrderAreNotReproduced() {
        SyntheticRun run = baseline("medium")
                .add("2311", 2, "medium", 198, 10, 41, 1900)
                .add("2211", 2, "medium", 192, 11, 56, 2600)
                .add("2111", 2, "medium", 180, 14, 46, 2000);

        Finding f5 = finding(run, "F5");

        assertThat(f5.verdict()).isEqualTo(Verdict.NOT_REPRODUCED);
        assertThat(f5.checks()).allMatch(c -> c.outcome() == Check.Outcome.FAILS);
        // per page: 2 × 1,900 KB/s / 198 pages/s and 2 × 2,600 / 192
        assertThat(f5.checks().get(0).evidence()).contains("2311 19.19 KB/page vs 2211 27.08 KB/page", "at 2 nodes");
    }

    @Test
    void onlyTheMarginSeparatesALowerFromAnEqualFigure() {
        SyntheticRun fourPercent = baseline("medium")
                .add("2211", 2, "medium", 192, 11, 46, 2000)
                .add("2111", 2, "medium", 192, 14, 55, 2080);
        SyntheticRun sixPercent = baseline("medium")
                .add("2211", 2, "medium", 192, 11, 46, 2000)
                .add("2111", 2, "medium", 192, 14, 55, 2130);

        assertThat(finding(fourPercent, "F5").checks().get(1).outcome()).isEqualTo(Check.Outcome.FAILS);
        assertThat(finding(sixPercent, "F5").checks().get(1).outcome()).isEqualTo(Check.Outcome.HOLDS);
    }

    @Test
    void interconnectIsComparedPerPageSoThroughputNoiseIsNotReadAsMoreBytes() {
        // 2211wq2 sends 18 % more KB/s than 2211 only because it served 18 % more pages: the same bytes per page
        SyntheticRun noisy = baseline("medium")
                .add("2211", 2, "medium", 110, 11, 46, 1346)
                .add("2211wq2", 2, "medium", 130, 11, 48, 1590)
                .add("2211wq3", 2, "medium", 130, 11, 48, 1590);
        SyntheticRun moreBytes = baseline("medium")
                .add("2211", 2, "medium", 110, 11, 46, 1346)
                .add("2211wq2", 2, "medium", 110, 11, 48, 1590)
                .add("2211wq3", 2, "medium", 110, 11, 48, 1590);

        assertThat(finding(noisy, "F11").checks().get(0).outcome()).isEqualTo(Check.Outcome.HOLDS);
        assertThat(finding(moreBytes, "F11").checks().get(0).outcome()).isEqualTo(Check.Outcome.FAILS);
    }

    @Test
    void allAttributesSendingMoreThanModifiedIsReproducedAndTheReverseIsNot() {
        SyntheticRun shaped = baseline("medium")
                .add("2211", 2, "medium", 192, 11, 46, 2000)
                .add("2221", 2, "medium", 170, 11.2, 58, 5000);
        SyntheticRun reversed = baseline("medium")
                .add("2211", 2, "medium", 192, 13, 58, 5000)
                .add("2221", 2, "medium", 170, 11, 46, 2000);

        assertThat(finding(shaped, "F7").verdict()).isEqualTo(Verdict.REPRODUCED);
        assertThat(finding(reversed, "F7").verdict()).isEqualTo(Verdict.NOT_REPRODUCED);
    }

    @Test
    void synchronousDeliveryNotSlowerThanAsynchronousIsReproducedAndFasterIsNot() {
        SyntheticRun shaped = baseline("medium")
                .add("2211", 2, "medium", 192, 11, 46, 2000).add("2212", 2, "medium", 190, 11.5, 48, 2050)
                .add("2111", 2, "medium", 180, 14, 55, 2600).add("2112", 2, "medium", 172, 30, 60, 2700);
        SyntheticRun syncFaster = baseline("medium")
                .add("2211", 2, "medium", 192, 20, 46, 2000).add("2212", 2, "medium", 150, 11, 48, 2050)
                .add("2111", 2, "medium", 170, 30, 55, 2600).add("2112", 2, "medium", 190, 14, 60, 2700);

        assertThat(finding(shaped, "F9").verdict()).isEqualTo(Verdict.REPRODUCED);
        assertThat(finding(syncFaster, "F9").verdict()).isEqualTo(Verdict.NOT_REPRODUCED);
    }

    @Test
    void writeQuotaBytesOneTwoThreeAtFourNodesAreReproducedAndEqualBytesAreNot() {
        SyntheticRun shaped = quotas(2000, 4000, 6000);
        SyntheticRun flat = quotas(2000, 2000, 2000);

        assertThat(finding(shaped, "F11").checks()).filteredOn(c -> c.expectation().contains("≥ 4 nodes")
                && c.expectation().startsWith("interconnect")).hasSize(2)
                .allMatch(c -> c.outcome() == Check.Outcome.HOLDS);
        assertThat(finding(flat, "F11").checks()).filteredOn(c -> c.expectation().contains("≥ 4 nodes")
                && c.expectation().startsWith("interconnect")).hasSize(2)
                .allMatch(c -> c.outcome() == Check.Outcome.FAILS);
        assertThat(finding(flat, "F11").verdict()).isEqualTo(Verdict.PARTLY);
    }

    @Test
    void atTwoNodesEqualBytesForEveryQuotaIsTheExpectedShapeAndOneTwoThreeIsNotMeasured() {
        SyntheticRun run = baseline("medium")
                .add("2211", 2, "medium", 192, 11, 46, 2000)
                .add("2211wq2", 2, "medium", 191, 11, 46, 2010)
                .add("2211wq3", 2, "medium", 191, 11, 46, 1990);

        Finding f11 = finding(run, "F11");

        assertThat(f11.checks()).filteredOn(c -> c.expectation().contains("at 2 nodes"))
                .hasSize(2).allMatch(c -> c.outcome() == Check.Outcome.HOLDS);
        assertThat(f11.checks()).filteredOn(c -> c.outcome() == Check.Outcome.NOT_MEASURED).isNotEmpty()
                .allMatch(c -> c.evidence().contains("needs 2211") && c.evidence().contains("this run had at most 2 nodes"));
        assertThat(f11.verdict()).isEqualTo(Verdict.PARTLY);
    }

    @Test
    void twoNodeBytesThatGrowWithTheQuotaAreNotTheStudysTwoNodeShape() {
        SyntheticRun run = baseline("medium")
                .add("2211", 2, "medium", 192, 11, 46, 2000)
                .add("2211wq2", 2, "medium", 191, 11, 46, 4000)
                .add("2211wq3", 2, "medium", 191, 11, 46, 6000);

        assertThat(finding(run, "F11").checks()).filteredOn(c -> c.expectation().contains("at 2 nodes"))
                .hasSize(2).allMatch(c -> c.outcome() == Check.Outcome.FAILS);
    }

    @Test
    void bytesPerNodeConstantAsNodesGrowHoldsAndGrowingBytesFail() {
        SyntheticRun constant = baseline("medium").add("none", 4, "medium", 396, 10, 40, 0)
                .add("2211", 2, "medium", 192, 11, 46, 2000).add("2211", 4, "medium", 384, 11, 46, 2100);
        SyntheticRun growing = baseline("medium").add("none", 4, "medium", 396, 10, 40, 0)
                .add("2211", 2, "medium", 192, 11, 46, 2000).add("2211", 4, "medium", 384, 11, 46, 4000);

        assertThat(constantCheck(constant).outcome()).isEqualTo(Check.Outcome.HOLDS);
        assertThat(constantCheck(growing).outcome()).isEqualTo(Check.Outcome.FAILS);
        assertThat(constantCheck(growing).evidence()).contains("largest / smallest 2.00");
    }

    @Test
    void missingExperimentsAreNotMeasuredWithTheReason() {
        SyntheticRun onlyBaseline = baseline("medium");

        var findings = new StudyFindings(onlyBaseline.data()).evaluate();

        assertThat(findings).filteredOn(f -> !f.id().equals("F1"))
                .allMatch(f -> f.verdict() == Verdict.NOT_MEASURED);
        Finding f5 = findings.get(4);
        assertThat(f5.checks().get(0).evidence())
                .isEqualTo("needs 2311 and 2211 at one size of ≥ 2 nodes at medium (350 users per node); "
                        + "this run: 2311 not measured; 2211 not measured");
        assertThat(findings.get(3).checks().get(0).evidence()).startsWith("needs a high load; this run measured medium");
    }

    @Test
    void noneThatDoesNotScaleIsNotReproducedAndWithoutOneNodeBaselineIsNotMeasured() {
        SyntheticRun poor = new SyntheticRun().add("none", 1, "medium", 100, 10, 40, 0)
                .add("none", 2, "medium", 150, 14, 80, 0);
        SyntheticRun noBaseline = new SyntheticRun().add("none", 2, "medium", 198, 10, 40, 0);

        assertThat(finding(poor, "F1").verdict()).isEqualTo(Verdict.NOT_REPRODUCED);
        assertThat(finding(noBaseline, "F1").verdict()).isEqualTo(Verdict.NOT_MEASURED);
        assertThat(finding(noBaseline, "F1").checks().get(0).evidence()).contains("needs the 1-node none baseline");
    }

    @Test
    void verdictIsPartlyWhenSomeChecksHoldAndOthersFailOrAreMissing() {
        Check holds = Check.of("a", true, "x");
        Check fails = Check.of("b", false, "x");
        Check missing = Check.notMeasured("c", "x");

        assertThat(Verdict.of(java.util.List.of(holds, fails))).isEqualTo(Verdict.PARTLY);
        assertThat(Verdict.of(java.util.List.of(holds, missing))).isEqualTo(Verdict.PARTLY);
        assertThat(Verdict.of(java.util.List.of(fails, missing))).isEqualTo(Verdict.NOT_REPRODUCED);
        assertThat(Verdict.of(java.util.List.of(missing))).isEqualTo(Verdict.NOT_MEASURED);
        assertThat(Verdict.of(java.util.List.of(holds))).isEqualTo(Verdict.REPRODUCED);
    }

    private static Check constantCheck(SyntheticRun run) {
        return finding(run, "F3").checks().stream().filter(c -> c.expectation().contains("constant")).findFirst()
                .orElseThrow();
    }

    private static SyntheticRun quotas(double wq1, double wq2, double wq3) {
        return baseline("medium").add("none", 4, "medium", 396, 10, 40, 0)
                .add("2211", 4, "medium", 384, 11, 46, wq1)
                .add("2211wq2", 4, "medium", 370, 11, 48, wq2)
                .add("2211wq3", 4, "medium", 360, 11, 50, wq3);
    }

    private static SyntheticRun baseline(String load) {
        return new SyntheticRun().add("none", 1, load, 100, 10, 40, 0).add("none", 2, load, 198, 10, 40, 0);
    }

    private static Finding finding(SyntheticRun run, String id) {
        return new StudyFindings(run.data()).evaluate().stream().filter(f -> f.id().equals(id)).findFirst()
                .orElseThrow();
    }
}
