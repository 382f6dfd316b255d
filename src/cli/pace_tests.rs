//! The pace model: step costs, answer times, and what counts as a question.

use super::*;

#[test]
fn a_step_costs_the_slowest_of_all_and_the_fastest_of_any() {
    assert_eq!(step_cost(Mode::All, &[3.0, 9.0, 1.0]), 9.0);
    assert_eq!(step_cost(Mode::Any, &[3.0, 9.0, 1.0]), 1.0);
    assert_eq!(step_cost(Mode::All, &[5.0]), 5.0);
    assert_eq!(step_cost(Mode::All, &[]), 0.0);
    assert_eq!(step_cost(Mode::Any, &[]), 0.0);
}

#[test]
fn answers_have_the_median_a_long_tail_and_the_window_as_a_cap() {
    let model = PaceModel::default();
    let mut rng = GameRng::seeded(7);
    let mut times: Vec<f64> = (0..20_001)
        .map(|_| model.answer(&mut rng, Window::Turn))
        .collect();
    times.sort_by(f64::total_cmp);
    let median = times[10_000];
    assert!((median / (4.0 * 3600.0) - 1.0).abs() < 0.05, "{median}");
    // The tail: about 3.7% of answers reach the 24-hour turn length (ln 6 / sigma 1).
    let capped = times.iter().filter(|&&t| t >= model.turn_secs).count();
    assert!((500..1000).contains(&capped), "{capped}");
    assert!(times.iter().all(|&t| t > 0.0 && t <= model.turn_secs));
    let short = model.answer(&mut rng, Window::Seconds(600));
    assert!(short <= 600.0);
    // Deterministic from the seed.
    let a = model.answer(&mut GameRng::seeded(3), Window::Turn);
    assert_eq!(a, model.answer(&mut GameRng::seeded(3), Window::Turn));
}

fn spec(kind: GameKind, options: &'static str, players: usize) -> PaceSpec<'static> {
    PaceSpec {
        kind,
        options,
        players,
        games: 3,
        seed: 11,
        model: PaceModel::default(),
    }
}

#[test]
fn auto_never_asks_a_single_choice_and_asks_no_more_than_ask() {
    for p in LENGTHS {
        let s = spec(p.kind, p.options, 4);
        let ask = row(&s, Autopilot::Ask).unwrap();
        let auto = row(&s, Autopilot::Auto).unwrap();
        let bot = row(&s, Autopilot::Bot).unwrap();
        assert_eq!(auto.single_choice, 0, "{:?} {}", p.kind, p.options);
        assert!(auto.asked_mean() <= ask.asked_mean(), "{:?}", p.kind);
        assert!(auto.mean_days <= ask.mean_days, "{:?}", p.kind);
        // Three games: the 90th percentile (nearest rank) is the longest.
        assert!(ask.p90_days >= ask.mean_days, "{ask:?}");
        assert!(
            ask.asked_mean() > 0.0 && ask.mean_days > 0.0,
            "{:?}",
            p.kind
        );
        assert_eq!((bot.asked_mean(), bot.mean_days), (0.0, 0.0));
    }
}

#[test]
fn magical_athlete_asks_single_choices_under_ask_without_auto_roll() {
    let s = spec(GameKind::MagicalAthlete, "auto-roll=no", 4);
    let ask = row(&s, Autopilot::Ask).unwrap();
    assert!(ask.single_choice > 0, "{ask:?}");
    assert_eq!(row(&s, Autopilot::Auto).unwrap().single_choice, 0);
}

#[test]
fn a_simultaneous_game_waits_for_the_slowest_seat() {
    // Dream Mile: every turn waits for all seats, so more seats never make it faster.
    let model = PaceModel::default();
    let options = GameKind::DreamMile.apply_options(None, "").unwrap();
    let two = play_one(GameKind::DreamMile, &options, 2, 5, Autopilot::Ask, &model).unwrap();
    let six = play_one(GameKind::DreamMile, &options, 6, 5, Autopilot::Ask, &model).unwrap();
    assert_eq!(two.steps, 7);
    assert_eq!(six.asked, vec![7; 6]);
    let r2 = row(&spec(GameKind::DreamMile, "", 2), Autopilot::Ask).unwrap();
    let r6 = row(&spec(GameKind::DreamMile, "", 6), Autopilot::Ask).unwrap();
    // With three games the 90th percentile is the longest game.
    assert!(
        r2.p90_days >= r2.mean_days && r6.p90_days >= r6.mean_days,
        "{r2:?} {r6:?}"
    );
    assert!(r6.mean_days > r2.mean_days, "{r2:?} {r6:?}");
}

#[test]
fn ask_asks_every_seat_that_acts_and_auto_asks_fewer() {
    let model = PaceModel::default();
    for p in LENGTHS {
        let options = p.kind.apply_options(None, p.options).unwrap();
        let ask = play_one(p.kind, &options, 4, 2, Autopilot::Ask, &model).unwrap();
        assert_eq!(ask.asked.iter().sum::<u64>(), ask.prompts, "{:?}", p.kind);
        let auto = play_one(p.kind, &options, 4, 2, Autopilot::Auto, &model).unwrap();
        assert!(
            auto.asked.iter().sum::<u64>() <= auto.prompts,
            "{:?}",
            p.kind
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let s = spec(GameKind::MilleBornes, "rounds=1 target-score=0", 2);
    assert_eq!(report(&s).unwrap().1, report(&s).unwrap().1);
}

#[test]
fn the_doc_has_every_preset_its_commands_and_the_acceptance() {
    let md = doc(1, 3, &PaceModel::default(), "4h");
    for want in [
        "# Pace: questions per seat and expected duration",
        "## The model",
        "## Dream Mile: the race",
        "## 1000 miles: one round",
        "## 1000 miles: the full game (to 5000 points)",
        "## 1000 Yards: one round (the rulebook's game)",
        "## 1000 Yards: the full game (to 5000 points)",
        "## 1500m: the race",
        "## Magical Athlete: one race",
        "## Magical Athlete: the four-race game",
        "photofinish sim magical-athlete --pace --pace-median 4h --players 4 --races 1 --seed 3 --options \"races=1\"",
        "## Targets",
        "| 4 | auto |",
    ] {
        assert!(md.contains(want), "missing {want}:\n{md}");
    }
}

fn auto_row(most: u64) -> Vec<PaceRow> {
    let r = |setting: &'static str, asked: f64, most_asked: u64| PaceRow {
        setting,
        games: 1,
        asked_per_seat: vec![asked; 4],
        most_asked,
        single_choice: 0,
        mean_steps: 1.0,
        mean_days: 1.0,
        p90_days: 1.0,
    };
    vec![r("ask", 19.0, 40), r("auto", 7.0, most)]
}

#[test]
fn the_every_game_line_gives_a_reason_only_when_it_fails() {
    let game = crate::games::length::find(GameKind::MagicalAthlete, "game").unwrap();
    let mut checks = Checks::default();
    accept(&mut checks, game, &auto_row(10));
    let line = checks
        .lines
        .iter()
        .find(|l| l.contains("every game"))
        .unwrap();
    assert!(line.starts_with("- **holds**:"), "{line}");
    assert!(
        !line.contains("Magician"),
        "a reason for a check that holds: {line}"
    );
    let mut checks = Checks::default();
    accept(&mut checks, game, &auto_row(25));
    let line = checks
        .lines
        .iter()
        .find(|l| l.contains("every game"))
        .unwrap();
    assert!(line.starts_with("- **fails**:"), "{line}");
    assert!(line.contains("a Magician or a Dicemonger"), "{line}");
}
