//! The report writers on any text: names, tags, engine names and details holding control
//! characters, line breaks, `|`, backticks or markup round-trip through JSON, make valid
//! JUnit XML with a test case per verdict, and make Markdown without control characters
//! whose table rows all have the header's cells. Then merge conflicts, untested verdicts, an index of cases changed by hand, and reports with tens
//! of thousands of tags.

use padkit_conformance::report::{CaseResult, Cell, Conflict};
use padkit_conformance::{Report, Verdict};
use proptest::prelude::*;
use proptest::sample::Index;

/// Characters that break writers which do not escape them.
const HOSTILE: [char; 24] = [
    '\n', '\r', '\t', '\0', '\u{b}', '\u{c}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{2028}',
    '\u{fffe}', '\u{ffff}', '|', '`', '\\', '<', '>', '&', '"', '\'', ':', '*', ' ',
];

/// Up to `max` characters, each any character or one of [`HOSTILE`].
fn text(max: usize) -> impl Strategy<Value = String> {
    let c = prop_oneof![any::<char>(), prop::sample::select(HOSTILE.to_vec())];
    prop::collection::vec(c, 0..max).prop_map(|cs| cs.into_iter().collect::<String>())
}

/// A tag of a matrix group (or none) then any text.
fn tag() -> impl Strategy<Value = String> {
    let group = prop::sample::select(vec!["feature:", "mode:", "type:", "opset:", "feed:", ""]);
    (group, text(8)).prop_map(|(g, t)| format!("{g}{t}"))
}

fn verdict() -> impl Strategy<Value = Verdict> {
    prop_oneof![
        Just(Verdict::Pass),
        text(30).prop_map(Verdict::Refused),
        text(30).prop_map(Verdict::Unsupported),
        text(30).prop_map(Verdict::Untested),
        text(30).prop_map(Verdict::Wrong),
        text(30).prop_map(Verdict::Crash),
    ]
}

/// A report recorded from a few case names and engines (so that cases have several
/// engines' verdicts), each any text.
fn report() -> impl Strategy<Value = Report> {
    let names = prop::collection::vec(text(10), 1..6);
    let engines = prop::collection::vec(text(6), 1..4);
    let record = (
        any::<Index>(),
        prop::collection::vec(tag(), 0..3),
        any::<Index>(),
        verdict(),
    );
    let records = prop::collection::vec(record, 0..20);
    (names, engines, records).prop_map(|(names, engines, records)| {
        let mut r = Report::new(&[]);
        for (name, tags, engine, verdict) in records {
            r.record(
                name.get::<String>(&names),
                &tags,
                engine.get::<String>(&engines),
                verdict,
            );
        }
        r
    })
}

/// `text` less the characters XML 1.0 cannot hold.
fn xml_chars(text: &str) -> String {
    text.chars()
        .filter(|c| {
            !matches!(
                c,
                '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}'
            )
        })
        .collect()
}

/// `r.junit()` parses, with a test suite per engine and in it a test case per verdict of
/// the engine, named as the case, holding what the verdict says.
fn check_junit(r: &Report) {
    let xml = r.junit();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}:\n{xml}"));
    let suites: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), r.engines.len());
    for (suite, engine) in suites.iter().zip(&r.engines) {
        assert_eq!(suite.attribute("name"), Some(xml_chars(engine).as_str()));
        let verdicts: Vec<(&str, &Verdict)> = r
            .cases
            .iter()
            .filter_map(|c| Some((c.name.as_str(), c.results.get(engine)?)))
            .collect();
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), verdicts.len());
        for (case, (name, verdict)) in cases.iter().zip(&verdicts) {
            assert_eq!(case.attribute("classname"), suite.attribute("name"));
            assert_eq!(case.attribute("name"), Some(xml_chars(name).as_str()));
            check_outcome(*case, verdict);
        }
        let skipped = verdicts
            .iter()
            .filter(|(_, v)| {
                matches!(
                    v,
                    Verdict::Refused(_) | Verdict::Unsupported(_) | Verdict::Untested(_)
                )
            })
            .count();
        let tests = verdicts.len().to_string();
        assert_eq!(suite.attribute("tests"), Some(tests.as_str()));
        assert_eq!(
            suite.attribute("skipped"),
            Some(skipped.to_string().as_str())
        );
    }
}

/// What a test case holds for `verdict`: nothing for a pass, else one element whose
/// message or text is the verdict's detail.
fn check_outcome(case: roxmltree::Node<'_, '_>, verdict: &Verdict) {
    let mut elements = case.children().filter(|n| n.is_element());
    let Some(outcome) = elements.next() else {
        assert_eq!(verdict, &Verdict::Pass);
        return;
    };
    assert!(elements.next().is_none(), "{case:?}");
    let detail = xml_chars(verdict.detail());
    let (tag, message, text) = match verdict {
        Verdict::Pass => panic!("a pass holds {outcome:?}"),
        Verdict::Refused(_) => ("skipped", detail, String::new()),
        Verdict::Unsupported(_) => ("skipped", format!("unsupported: {detail}"), String::new()),
        Verdict::Untested(_) => ("skipped", format!("untested: {detail}"), String::new()),
        Verdict::Wrong(_) => ("failure", "wrong".to_string(), detail),
        Verdict::Crash(_) => ("error", "crash".to_string(), detail),
    };
    assert_eq!(outcome.tag_name().name(), tag);
    assert_eq!(outcome.attribute("message"), Some(message.as_str()));
    assert_eq!(outcome.text().unwrap_or(""), text);
}

/// The `|` of a table row that separate its cells: those no backslash escapes.
fn separators(line: &str) -> usize {
    let mut count = 0;
    let mut escaped = false;
    for c in line.chars() {
        if c == '|' && !escaped {
            count += 1;
        }
        escaped = c == '\\' && !escaped;
    }
    count
}

/// `md` holds no control character but line breaks, every line is a table row, a list
/// item, a heading of a list or blank, and every table row has the header's cells.
fn check_markdown(md: &str) {
    assert!(!md.chars().any(|c| c.is_control() && c != '\n'), "{md:?}");
    for line in md.lines() {
        let known = ["|", "- ", "First "].iter().any(|&p| line.starts_with(p));
        assert!(line.is_empty() || known, "{line:?} in\n{md}");
    }
    let mut table = md.lines().filter(|l| l.starts_with('|'));
    let cells = separators(table.next().expect("a header row"));
    for row in table {
        assert_eq!(separators(row), cells, "{row:?} in\n{md}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_text_round_trips_through_json(r in report()) {
        prop_assert_eq!(Report::from_json(&r.to_json()).unwrap(), r);
    }

    #[test]
    fn any_text_makes_valid_junit_with_a_test_case_per_verdict(r in report()) {
        check_junit(&r);
    }

    #[test]
    fn any_text_makes_markdown_without_controls_or_broken_rows(r in report()) {
        check_markdown(&r.table());
        check_markdown(&r.markdown(&[], 3));
    }
}

#[test]
fn markdown_keeps_hostile_names_to_their_cell_and_line() {
    let mut r = Report::new(&[]);
    let tags = ["feature:x|y\u{1b}[31m\nz".to_string()];
    let verdict = Verdict::Wrong("bad\u{1b}[2J\nnews|".into());
    r.record("c`a\nse", &tags, "e|1\n", verdict);
    let t = r.table();
    assert!(t.starts_with("| cases | e\\|1  |\n|---|---|\n"), "{t}");
    assert!(
        t.contains(r"| feature:x\|y\u{1b}[31m z | **1 wrong** |"),
        "{t}"
    );
    assert!(
        t.contains("- `c'a se`: wrong — bad\\u{1b}[2J news|\n"),
        "{t}"
    );
    check_markdown(&t);
    check_markdown(&r.markdown(&[], 3));
}

#[test]
fn junit_drops_what_xml_cannot_hold_and_keeps_line_breaks() {
    let mut r = Report::new(&[]);
    let verdict = Verdict::Crash("x\r\ny\u{1f}".into());
    r.record("a\u{0}b\u{fffe}\r\n'c'", &[], "e\u{b}", verdict);
    let xml = r.junit();
    let case = r#"<testcase classname="e" name="ab&#13;&#10;&apos;c&apos;"><error message="crash">x&#13;&#10;y</error></testcase>"#;
    assert!(xml.contains(case), "{xml}");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let case = doc
        .descendants()
        .find(|n| n.has_tag_name("testcase"))
        .unwrap();
    assert_eq!(case.attribute("name"), Some("ab\r\n'c'"));
}

#[test]
fn untested_cases_count_apart_and_list_after_refusals() {
    assert_eq!(
        Cell {
            untested: 2,
            ..Cell::default()
        }
        .summary(),
        "2 untested"
    );
    let mut r = Report::new(&[]);
    let tags = ["feature:pad".to_string()];
    for (name, v) in [
        ("declared", Verdict::Unsupported("no f32".into())),
        ("untested", Verdict::Untested("twin not passed".into())),
        ("refused", Verdict::Refused("no".into())),
        ("wrong", Verdict::Wrong("off".into())),
        ("crash", Verdict::Crash("boom".into())),
        ("pass", Verdict::Pass),
    ] {
        r.record(name, &tags, "e", v);
    }
    let cell = r.cell(None, "e");
    let counts = (
        cell.pass,
        cell.refused,
        cell.untested,
        cell.wrong,
        cell.crash,
    );
    assert_eq!(counts, (1, 2, 1, 1, 1));
    let summary = "1 pass · 2 refused · 1 untested · **1 wrong** · **1 crash**";
    assert_eq!(cell.summary(), summary);
    let md = r.markdown(&[], 5);
    assert!(md.contains(&format!("| feature:pad | {summary} |")), "{md}");
    let order = "`crash` (crash: boom); `wrong` (wrong: off); `refused` (refused: no); \
                 `untested` (untested: twin not passed); `declared` (unsupported: no f32)";
    assert!(md.contains(&format!("- all on e: {order}\n")), "{md}");
    let xml = r.junit();
    let suite = r#"<testsuite name="e" tests="6" failures="1" errors="1" skipped="3">"#;
    assert!(xml.contains(suite), "{xml}");
    let skip = r#"<testcase classname="e" name="untested"><skipped message="untested: twin not passed"/></testcase>"#;
    assert!(xml.contains(skip), "{xml}");
}

#[test]
fn merging_refuses_two_verdicts_of_one_engine_on_one_case() {
    let mut a = Report::new(&["core"]);
    a.record("c", &["mode:edge".into()], "core", Verdict::Pass);
    a.record("d", &[], "core", Verdict::Pass);
    let mut b = Report::new(&["peer"]);
    b.record("d", &[], "peer", Verdict::Wrong("off".into()));
    b.record("e", &[], "peer", Verdict::Pass);
    let merged = Report::try_merge([a.clone(), b.clone()]).unwrap();
    assert_eq!(merged.engines, ["core", "peer"]);
    let rows: Vec<(&str, usize)> = merged
        .cases
        .iter()
        .map(|c| (c.name.as_str(), c.results.len()))
        .collect();
    assert_eq!(rows, [("c", 1), ("d", 2), ("e", 1)]);

    let mut hidden = Report::new(&[]);
    hidden.record("d", &[], "core", Verdict::Crash("boom".into()));
    let conflict = Report::try_merge([a.clone(), b, hidden]).unwrap_err();
    let want = Conflict {
        case: "d".into(),
        engine: "core".into(),
        first: 0,
        second: 2,
    };
    assert_eq!(conflict, want);
    assert!(
        conflict
            .to_string()
            .contains(r#"engine "core" on case "d""#),
        "{conflict}"
    );

    // One report with two rows of a case (as JSON can hold) conflicts with itself.
    let mut twice = a;
    twice.cases.push(twice.cases[1].clone());
    let conflict = Report::try_merge([twice]).unwrap_err();
    let found = (conflict.case.as_str(), conflict.first, conflict.second);
    assert_eq!(found, ("d", 0, 0));
}

#[test]
fn record_finds_its_row_after_the_cases_were_changed_by_hand() {
    let mut r = Report::new(&[]);
    r.record("a", &[], "one", Verdict::Pass);
    r.record("b", &[], "one", Verdict::Pass);
    r.cases.swap(0, 1);
    r.record("a", &[], "two", Verdict::Pass);
    let c = CaseResult {
        name: "c".into(),
        tags: vec![],
        results: Default::default(),
    };
    r.cases.insert(0, c);
    r.record("b", &[], "two", Verdict::Pass);
    r.record("c", &[], "one", Verdict::Pass);
    let rows: Vec<(&str, usize)> = r
        .cases
        .iter()
        .map(|c| (c.name.as_str(), c.results.len()))
        .collect();
    assert_eq!(rows, [("c", 1), ("b", 2), ("a", 2)]);
    // Equality is the data's alone, whatever the index of rows holds.
    r.cases.clear();
    r.engines.clear();
    assert_eq!(r, Report::default());
}

/// Tens of thousands of distinct tags: the writers and merging take one pass over the
/// cases (a matrix counted cell by cell, each cell over all cases, took minutes).
#[test]
fn many_distinct_tags_are_written_in_one_pass() {
    const N: usize = 30_000;
    let mut r = Report::new(&[]);
    for i in 0..N {
        let tags = [format!("feature:f{i}"), "mode:edge".to_string()];
        let verdict = if i % 2 == 0 {
            Verdict::Pass
        } else {
            Verdict::Wrong("off".into())
        };
        r.record(&format!("case{i}"), &tags, "e", verdict);
    }
    assert_eq!(Report::try_merge([r.clone()]).unwrap(), r);
    let table = r.table();
    let rows = table.lines().filter(|l| l.starts_with('|')).count();
    assert_eq!(rows, N + 4);
    let md = r.markdown(&["feature"], 1);
    let listed = md.lines().filter(|l| l.starts_with("- feature:")).count();
    assert_eq!(listed, N / 2);
}
