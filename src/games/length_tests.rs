use super::*;

/// docs/pace.md's rows of one setting: (heading, seats) -> (mean, p90) as printed.
fn doc_rows_of(setting: &str) -> Vec<(String, usize, String, String)> {
    let doc = include_str!("../../docs/pace.md");
    let mut heading = String::new();
    let mut out = Vec::new();
    for line in doc.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            heading = h.to_string();
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | seats | setting | steps | asked | most | single | real | mean | p90 |
        if cells.len() == 11 && cells[2] == setting {
            let seats = cells[1].parse().unwrap();
            out.push((
                heading.clone(),
                seats,
                cells[8].to_string(),
                cells[9].to_string(),
            ));
        }
    }
    out
}

fn doc_rows() -> Vec<(String, usize, String, String)> {
    doc_rows_of("auto")
}

#[test]
fn the_standing_figures_are_docs_pace_md() {
    let rows = doc_rows_of("auto, standing plays");
    assert_eq!(rows.len(), PACE_STANDING.len());
    for f in PACE_STANDING {
        let l = find(f.kind, f.length).unwrap();
        let heading = format!("{}: {}", f.kind.title(), l.name);
        let row = rows
            .iter()
            .find(|r| r.0 == heading && r.1 == f.seats)
            .unwrap_or_else(|| panic!("no standing row for {heading} with {} seats", f.seats));
        assert_eq!(
            (row.2.as_str(), row.3.as_str()),
            (days(f.mean_tenths).as_str(), days(f.p90_tenths).as_str()),
            "{heading}, {} seats",
            f.seats
        );
    }
}

#[test]
fn the_figures_are_docs_pace_md() {
    let rows = doc_rows();
    for f in PACE {
        let l = find(f.kind, f.length).unwrap();
        let heading = format!("{}: {}", f.kind.title(), l.name);
        let row = rows
            .iter()
            .find(|r| r.0 == heading && r.1 == f.seats)
            .unwrap_or_else(|| panic!("no `auto` row for {heading} with {} seats", f.seats));
        assert_eq!(
            (row.2.as_str(), row.3.as_str()),
            (days(f.mean_tenths).as_str(), days(f.p90_tenths).as_str()),
            "{heading}, {} seats: docs/pace.md and src/games/length.rs differ",
            f.seats
        );
    }
    // And every table in the doc is in src.
    for r in &rows {
        assert!(
            PACE.iter().any(|f| {
                let l = find(f.kind, f.length).unwrap();
                format!("{}: {}", f.kind.title(), l.name) == r.0 && f.seats == r.1
            }),
            "docs/pace.md has {} with {} seats; src/games/length.rs does not",
            r.0,
            r.1
        );
    }
}

#[test]
fn every_game_has_lengths_and_each_its_options() {
    for kind in GameKind::all() {
        let ls: Vec<_> = lengths(kind).collect();
        assert!(!ls.is_empty(), "{kind}");
        assert_eq!(ls.iter().filter(|l| l.shortest).count(), 1, "{kind}");
        assert_eq!(
            ls.iter().filter(|l| l.options.is_empty()).count(),
            1,
            "{kind}"
        );
        for l in ls {
            let options = kind.apply_options(None, l.options).unwrap();
            assert_eq!(of_options(kind, &options), Some(l), "{kind} {}", l.slug);
            // The lobby reads the options back from their `key=value` text.
            let text = kind.describe_options(&options);
            assert_eq!(
                of_options(kind, &kind.apply_options(None, &text).unwrap()),
                Some(l),
                "{kind} {} from `{text}`",
                l.slug
            );
            assert_eq!(
                PACE.iter()
                    .filter(|f| f.kind == kind && f.length == l.slug)
                    .count(),
                3
            );
        }
    }
}

#[test]
fn presets_map_to_each_games_options() {
    let o = |kind: GameKind, length: &str| {
        kind.apply_options(None, &with_length(find(kind, length).unwrap(), ""))
            .unwrap()
    };
    let m = o(GameKind::MilleBornes, "round");
    assert_eq!(
        (m["rounds"].clone(), m["target_score"].clone()),
        (1.into(), 0.into())
    );
    let m = o(GameKind::MilleBornes, "game");
    assert_eq!(
        (m["rounds"].clone(), m["target_score"].clone()),
        (0.into(), 5000.into())
    );
    let y = o(GameKind::ThousandYards, "round");
    assert_eq!(
        (y["rounds"].clone(), y["target_score"].clone()),
        (1.into(), 0.into())
    );
    let y = o(GameKind::ThousandYards, "game");
    assert_eq!(
        (y["rounds"].clone(), y["target_score"].clone()),
        (0.into(), 5000.into())
    );
    assert_eq!(o(GameKind::MagicalAthlete, "race")["races"], 1);
    assert_eq!(o(GameKind::MagicalAthlete, "game")["races"], 4);
    // The host's own options win over the preset's.
    let m = GameKind::MilleBornes
        .apply_options(
            None,
            &with_length(
                find(GameKind::MilleBornes, "game").unwrap(),
                "target-score=3000",
            ),
        )
        .unwrap();
    assert_eq!(m["target_score"], 3000);
}

#[test]
fn a_length_a_game_lacks_is_one_sentence_naming_its_lengths() {
    let e = find(GameKind::DreamMile, "round").unwrap_err().to_string();
    assert_eq!(
        e,
        "Dream Mile has no length `round`; its lengths are `race` (the race)"
    );
    let e = find(GameKind::MagicalAthlete, "round")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`race` (one race) or `game` (the four-race game)"),
        "{e}"
    );
    assert_eq!(find(GameKind::DreamMile, "game").unwrap().slug, "race");
}

#[test]
fn the_lobby_line_reads_the_table_for_the_seats() {
    let l = find(GameKind::MagicalAthlete, "game").unwrap();
    assert_eq!(
        describe(l, 4).unwrap(),
        "The four-race game: about 5.6 days, 7.0 days in 9 games out of 10, when players \
         answer in 4 hours (median) on autopilot `auto` with 24-hour turns (docs/pace.md)."
    );
    // Not measured: the nearest measured count, said so; a tie takes the larger.
    assert!(describe(l, 5).unwrap().contains("about 8.1 days"));
    assert!(describe(l, 5).unwrap().contains("(measured with 6 seats)"));
    let dm = find(GameKind::DreamMile, "race").unwrap();
    assert!(
        describe(dm, 12)
            .unwrap()
            .contains("(measured with 6 seats)")
    );
    // From the lobby's options text; an empty lobby counts the game's fewest seats.
    let line = lobby_line(GameKind::MagicalAthlete, "races=1", 0).unwrap();
    assert!(line.starts_with("One race: about 6.3 days"), "{line}");
    let line = lobby_line(GameKind::MilleBornes, "rounds=1 target-score=0", 4).unwrap();
    assert!(line.starts_with("One round: about 16.9 days"), "{line}");
    assert!(
        line.ends_with("With standing plays on (`standing-plays=yes`): about 1.5 days."),
        "{line}"
    );
    // Options no length has: nothing is claimed.
    assert_eq!(
        lobby_line(GameKind::MilleBornes, "rounds=3 target-score=0", 4),
        None
    );
}
