//! End to end on the fake Discord: two short Dream Mile races in one
//! channel as a series (the second opened by the first's Rematch button). Then the
//! archive lists both, the first's export verifies offline, the leaderboard and a
//! player's statistics show the numbers the results imply, hidden statistics are refused
//! to others, and each final post carries the series standings and the race's animation.

use crate::support::discord::*;
use photofinish::referee::export::read_export;
use photofinish::referee::series::points_for;
use photofinish::referee::verify::verify_export;
use photofinish::vocab::{CampaignId, Phase, UserId};
use serde_json::{Value, json};

/// Plays race `race` to its end: every human seat orders 5 each step, straight to the
/// referee (how orders arrive is other tests' business).
async fn play_out(h: &Harness, race: i64, users: &[&User]) {
    let referee = h.referee();
    let mut guard = 0;
    while referee.overview(CampaignId(race)).await.unwrap().phase != Phase::Finished {
        for u in users {
            let me = UserId::new(u.id.to_string());
            let _ = referee.submit(CampaignId(race), &me, "5").await;
        }
        guard += 1;
        assert!(guard < 20, "race {race} did not finish");
    }
    h.settle().await;
}

/// The final post of race `race` as Discord keeps it, and the request that posted it.
fn final_post(h: &Harness, race: i64) -> (Value, Recorded) {
    let title = format!("race #{race}: final result");
    let message = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .find(|m| text_of(m).contains(&title))
        .unwrap_or_else(|| panic!("no final post of race {race}"));
    let request = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.method == "POST" && text_of(&r.body).contains(&title))
        .unwrap();
    (message, request)
}

/// Each seat's rank in race `race`, by user id, from its export.
async fn ranks(h: &Harness, race: i64) -> Vec<(String, u32)> {
    let x = h.referee().export(CampaignId(race)).await.unwrap();
    x.result
        .unwrap()
        .iter()
        .map(|p| {
            (
                x.seats
                    .iter()
                    .find(|s| s.seat == p.seat)
                    .unwrap()
                    .name
                    .clone(),
                p.rank,
            )
        })
        .collect()
}

fn rank_of(ranks: &[(String, u32)], name: &str) -> u32 {
    ranks.iter().find(|(n, _)| n == name).unwrap().1
}

/// The animation on a final post: a GIF beside the chart, that decodes into several
/// frames of the chart's width, far within Discord's limit.
fn check_the_animation(r: &Recorded, race: i64) {
    let names: Vec<&str> = r.uploads.iter().map(|u| u.filename.as_str()).collect();
    assert_eq!(
        names,
        vec![
            format!("race-{race}-chart.png").as_str(),
            format!("race-{race}-replay.gif").as_str()
        ],
        "the chart and the animation"
    );
    let gif = &r.uploads[1].bytes;
    assert!(gif.starts_with(b"GIF89a"), "a GIF");
    assert!(gif.len() < 6 * 1024 * 1024, "{} bytes", gif.len());
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::io::Cursor::new(gif)).unwrap();
    assert!(decoder.width() >= 400, "{}", decoder.width());
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert!(frames >= 4, "{frames} frames");
    // The second embed shows it, with alt text.
    assert_eq!(
        r.body["embeds"][1]["image"]["url"],
        format!("attachment://race-{race}-replay.gif")
    );
    let alt = r.body["attachments"][1]["description"].as_str().unwrap();
    assert!(alt.contains("turn by turn"), "{alt}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_races_as_a_series_then_archive_export_ratings_stats_and_rematch() {
    let h = Harness::start().await;
    let alice = User::new(1901, "Alice");
    let bob = User::new(1902, "Bob");
    let carol = User::new(1903, "Carol");

    // Race #1 opens a series.
    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", json!("dream-mile")),
                ("series", json!("  Autumn   Cup ")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("race #1 is open"), "{a}");
    assert!(text_of(&a).contains("series **Autumn Cup**"), "{a}");
    let a = h
        .slash(
            &carol,
            "new",
            &[
                ("game", json!("dream-mile")),
                ("series", json!("x".repeat(41))),
            ],
        )
        .await;
    assert!(text_of(&a).contains("at most 40 characters"), "{a}");
    for u in [&alice, &bob] {
        let a = h.slash(u, "join", &[]).await;
        assert!(text_of(&a).contains("You're in"), "{a}");
    }
    let a = h.slash(&alice, "bots", &[]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    play_out(&h, 1, &[&alice, &bob]).await;
    let first = ranks(&h, 1).await;

    // Its final post: the series after one race, the animation, and the Rematch button.
    let (message, request) = final_post(&h, 1);
    let t = text_of(&message);
    assert!(t.contains("Autumn Cup after 1 race"), "{t}");
    assert!(
        t.contains(&format!(
            "**Alice** {} pts",
            points_for(rank_of(&first, "Alice"))
        )),
        "{t}"
    );
    check_the_animation(&request, 1);
    assert!(
        custom_ids(&message).contains(&"pf:rematch:1".to_string()),
        "{message}"
    );

    // A stranger to the race may not open its rematch; Bob does, and a second press
    // (Alice's) opens nothing more.
    let a = h.click(&carol, &message, "pf:rematch:1").await;
    assert!(text_of(&a).contains("Only race #1's players"), "{a}");
    let a = h.click(&bob, &message, "pf:rematch:1").await;
    let t = text_of(&a);
    assert!(t.contains("Race #2 is open"), "{t}");
    let a = h.click(&alice, &message, "pf:rematch:1").await;
    assert!(text_of(&a).contains("race #2"), "{a}");
    assert!(text_of(&a).contains("already"), "{a}");
    h.settle().await;
    let referee = h.referee();
    let o1 = referee.overview(CampaignId(1)).await.unwrap();
    let o2 = referee.overview(CampaignId(2)).await.unwrap();
    assert_eq!(o2.phase, Phase::Lobby);
    assert_eq!((o2.kind, &o2.options), (o1.kind, &o1.options));
    assert!(
        referee.overview(CampaignId(3)).await.is_err(),
        "one lobby only"
    );
    // Bob is seated and the bot re-seated at once; Alice is invited, by mention.
    let lobby = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .rev()
        .find(|m| custom_ids(m).contains(&"pf:join:2".to_string()))
        .expect("race #2's lobby");
    let invite = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .find(|m| text_of(m).contains("Rematch of race #1"))
        .expect("the invitation");
    assert!(
        text_of(&invite).contains(&format!("<@{}>", alice.id)),
        "{invite}"
    );
    assert!(
        !text_of(&invite).contains(&format!("<@{}>", bob.id)),
        "{invite}"
    );
    let a = h.click(&alice, &lobby, "pf:join:2").await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    let a = h.slash(&bob, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    play_out(&h, 2, &[&alice, &bob]).await;
    let second = ranks(&h, 2).await;
    assert_eq!(second.len(), 3, "{second:?}");

    // Race #2's final post: the series after two races.
    let (message, request) = final_post(&h, 2);
    let t = text_of(&message);
    assert!(t.contains("Autumn Cup after 2 races"), "{t}");
    for name in ["Alice", "Bob"] {
        let points = points_for(rank_of(&first, name)) + points_for(rank_of(&second, name));
        assert!(
            t.contains(&format!("**{name}** {points} pts")),
            "{name}: {t}"
        );
    }
    check_the_animation(&request, 2);

    // The archive lists both, in the series; and shows the series' standings.
    let a = h.slash(&carol, "archive", &[]).await;
    let t = text_of(&a);
    let two = t.find("Race #2 · Dream Mile").expect(&t);
    let one = t.find("Race #1 · Dream Mile").expect(&t);
    assert!(two < one, "{t}");
    assert_eq!(t.matches("Autumn Cup").count(), 2, "{t}");
    let a = h
        .slash(&carol, "archive", &[("series", json!("Spring Cup"))])
        .await;
    assert!(
        text_of(&a).contains("No race in this channel counts toward a series named Spring Cup"),
        "{a}"
    );
    let a = h
        .slash(&carol, "archive", &[("series", json!("autumn cup"))])
        .await;
    assert!(text_of(&a).contains("Autumn Cup after 2 races"), "{a}");

    // The first race's export verifies offline.
    let x = h.referee().export(CampaignId(1)).await.unwrap();
    let text = serde_json::to_string(&x).unwrap();
    let report = verify_export(&read_export(&text).unwrap());
    assert!(report.ok(), "{report:?}");

    // The leaderboard: both players with two races and their wins.
    let wins =
        |name: &str| u32::from(rank_of(&first, name) == 1) + u32::from(rank_of(&second, name) == 1);
    let plural = |n: u32, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let a = h
        .slash(&carol, "archive", &[("game", json!("dream-mile"))])
        .await;
    let t = text_of(&a);
    for name in ["Alice", "Bob"] {
        let line = t
            .lines()
            .find(|l| l.contains(&format!("**{name}**")))
            .expect(&t);
        assert!(
            line.contains(&format!("(2 races, {})", plural(wins(name), "win"))),
            "{line}"
        );
    }

    // Bob's statistics, as anyone sees them.
    let bob_opt = FakeDiscord::user_option(&bob);
    let a = h
        .slash(&carol, "archive", &[("player", bob_opt.clone())])
        .await;
    let t = text_of(&a);
    assert!(t.contains("Bob on this server"), "{t}");
    let podiums = u32::from(rank_of(&first, "Bob") <= 3) + u32::from(rank_of(&second, "Bob") <= 3);
    assert!(
        t.contains(&format!(
            "**Dream Mile**: 2 races, {}, {}",
            plural(wins("Bob"), "win"),
            plural(podiums, "podium")
        )),
        "{t}"
    );
    assert!(t.contains("rating "), "{t}");
    assert!(t.contains("missed orders 0 of "), "{t}");

    // Bob hides them: refused to Carol in one sentence, shown to Bob, hidden on the
    // leaderboard; and shown again.
    let a = h.slash(&bob, "archive", &[("hide", json!(true))]).await;
    assert!(text_of(&a).contains("hidden from others"), "{a}");
    let a = h
        .slash(&carol, "archive", &[("player", bob_opt.clone())])
        .await;
    assert!(text_of(&a).contains("hides their statistics"), "{a}");
    assert!(!text_of(&a).contains("Dream Mile"), "{a}");
    let a = h
        .slash(&bob, "archive", &[("player", bob_opt.clone())])
        .await;
    assert!(text_of(&a).contains("**Dream Mile**: 2 races"), "{a}");
    assert!(text_of(&a).contains("hidden from others"), "{a}");
    let a = h
        .slash(&carol, "archive", &[("game", json!("dream-mile"))])
        .await;
    let t = text_of(&a);
    assert!(!t.contains("**Bob**"), "{t}");
    assert!(t.contains("hides their statistics"), "{t}");
    let a = h.slash(&bob, "archive", &[("hide", json!(false))]).await;
    assert!(text_of(&a).contains("shown to others"), "{a}");
    let a = h.slash(&carol, "archive", &[("player", bob_opt)]).await;
    assert!(text_of(&a).contains("**Dream Mile**: 2 races"), "{a}");
    // Carol has played nothing.
    let a = h
        .slash(
            &bob,
            "archive",
            &[("player", FakeDiscord::user_option(&carol))],
        )
        .await;
    assert!(
        text_of(&a).contains("has not finished a race on this server"),
        "{a}"
    );
    assert_discord_was_happy(&h);
}

/// Opens a Dream Mile race in the series `series`, seats Alice, Bob and a bot, starts it
/// and plays it out.
async fn a_race_in(h: &Harness, race: i64, series: &str, alice: &User, bob: &User) {
    let a = h
        .slash(
            alice,
            "new",
            &[("game", json!("dream-mile")), ("series", json!(series))],
        )
        .await;
    assert!(
        text_of(&a).contains(&format!("race #{race} is open")),
        "{a}"
    );
    for u in [alice, bob] {
        let a = h.slash(u, "join", &[]).await;
        assert!(text_of(&a).contains("You're in"), "{a}");
    }
    let a = h.slash(alice, "bots", &[]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    let a = h.slash(alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    play_out(h, race, &[alice, bob]).await;
}

/// `/race series new` (a subcommand group) opens a series of two races with the 25-18-...
/// table; the races join it by name; the second's final post carries the final standings
/// and a picture of them over both races; a third race is refused a place in it; and a
/// series counted by the game's own score says so in `/race series standings`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_series_opened_ahead_runs_its_races_and_ends_with_a_picture() {
    let h = Harness::start().await;
    let alice = User::new(1911, "Alice");
    let bob = User::new(1912, "Bob");
    let grand = "25-18-15-12-10-8-6-4-2-1";
    let a = h
        .slash(
            &alice,
            "series new",
            &[
                ("name", json!("Winter Cup")),
                ("races", json!(2)),
                ("points", json!(grand)),
            ],
        )
        .await;
    let t = text_of(&a);
    assert!(
        t.contains("The series **Winter Cup** runs 2 races here"),
        "{t}"
    );
    assert!(t.contains(&format!("Points by place: {grand}.")), "{t}");
    let a = h
        .slash(
            &bob,
            "series new",
            &[("name", json!("winter cup")), ("races", json!(3))],
        )
        .await;
    assert!(
        text_of(&a).contains("has a series named winter cup already"),
        "{a}"
    );
    let a = h
        .slash(
            &bob,
            "series new",
            &[("name", json!("Spring Cup")), ("races", json!(0))],
        )
        .await;
    assert!(text_of(&a).contains("A series runs 1 to 50 races"), "{a}");
    let a = h
        .slash(&bob, "series standings", &[("name", json!("WINTER CUP"))])
        .await;
    let t = text_of(&a);
    assert!(t.contains("Winter Cup after 0 of 2 races"), "{t}");
    assert!(
        t.contains("No race of this series has finished yet."),
        "{t}"
    );

    // Two races; the first's post shows the series part-way, in its table's points.
    let grand_points = |rank: u32| [25, 18, 15, 12, 10, 8, 6, 4, 2, 1][rank as usize - 1];
    a_race_in(&h, 1, "winter cup", &alice, &bob).await;
    let first = ranks(&h, 1).await;
    let (message, request) = final_post(&h, 1);
    let t = text_of(&message);
    assert!(t.contains("Winter Cup after 1 of 2 races"), "{t}");
    assert!(
        t.contains(&format!(
            "**Alice** {} pts",
            grand_points(rank_of(&first, "Alice"))
        )),
        "{t}"
    );
    assert!(
        !request
            .uploads
            .iter()
            .any(|u| u.filename == "series-standings.png"),
        "no picture before the end"
    );
    a_race_in(&h, 2, "Winter Cup", &alice, &bob).await;
    let second = ranks(&h, 2).await;

    // The last race's final post: the final standings and their picture.
    let (message, request) = final_post(&h, 2);
    let t = text_of(&message);
    assert!(
        t.contains("Winter Cup: final standings after 2 races"),
        "{t}"
    );
    for name in ["Alice", "Bob"] {
        let points = grand_points(rank_of(&first, name)) + grand_points(rank_of(&second, name));
        assert!(
            t.contains(&format!("**{name}** {points} pts")),
            "{name}: {t}"
        );
    }
    let png = request
        .uploads
        .iter()
        .find(|u| u.filename == "series-standings.png")
        .expect("the series' picture");
    let decoder = png::Decoder::new(std::io::Cursor::new(&png.bytes));
    let info = decoder.read_info().unwrap();
    assert!(info.info().width >= 400, "{}", info.info().width);
    let embeds = request.body["embeds"].as_array().unwrap();
    assert!(
        embeds
            .iter()
            .any(|e| e["image"]["url"] == "attachment://series-standings.png"),
        "{embeds:?}"
    );
    check_the_animation_is_there(&request, 2);

    // The series is full: a third race opens, outside it.
    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", json!("dream-mile")),
                ("series", json!("Winter Cup")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("has its 2 races already"), "{a}");
    let a = h
        .slash(&bob, "series standings", &[("name", json!("Winter Cup"))])
        .await;
    assert!(
        text_of(&a).contains("Winter Cup: final standings after 2 races"),
        "{a}"
    );
    let a = h.slash(&alice, "cancel", &[]).await;
    assert!(text_of(&a).contains("cancelled"), "{a}");

    // A series on the game's own score.
    let a = h
        .slash(
            &alice,
            "series new",
            &[
                ("name", json!("Chip Cup")),
                ("races", json!(3)),
                ("points", json!("score")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("each race's own score"), "{a}");
    let a = h
        .slash(&bob, "series standings", &[("name", json!("chip cup"))])
        .await;
    let t = text_of(&a);
    assert!(t.contains("Chip Cup after 0 of 3 races"), "{t}");
    assert!(t.contains("Points: each race's own score"), "{t}");
    assert_discord_was_happy(&h);
}

/// The chart and the animation are still there beside the series' picture.
fn check_the_animation_is_there(r: &Recorded, race: i64) {
    let names: Vec<&str> = r.uploads.iter().map(|u| u.filename.as_str()).collect();
    for want in [
        format!("race-{race}-chart.png"),
        format!("race-{race}-replay.gif"),
    ] {
        assert!(names.contains(&want.as_str()), "{names:?}");
    }
}

/// The animation of each game's longest committed race, and of a whole Magical Athlete
/// season (four races, hundreds of steps): within its budget and Discord's limit, and a
/// GIF of the sampled frames. Prints the sizes docs/discord.md gives. A measurement of
/// about a minute and a half in a debug build, so run on demand:
/// `cargo test --locked --test integration -- --ignored discord_series:: --nocapture`.
#[test]
#[ignore = "a measurement (about 90 s in debug); docs/discord.md gives its figures"]
fn the_animation_of_each_games_longest_race_stays_modest() {
    use crate::support::pictures::{magical_athlete_season, views};
    use photofinish::render::animation::{MAX_FRAMES, MAX_GIF_BYTES, animate};
    let races = [
        ("dream-mile-twelve.json", views("dream-mile-twelve.json")),
        ("1000-miles-rounds.json", views("1000-miles-rounds.json")),
        ("1000-yards-teams.json", views("1000-yards-teams.json")),
        ("1500m-race.json", views("1500m-race.json")),
        (
            "magical-athlete-wild.json",
            views("magical-athlete-wild.json"),
        ),
        (
            "a Magical Athlete season of 5",
            magical_athlete_season("", 5, 7),
        ),
    ];
    for (name, views) in races {
        let a = animate(&views).unwrap();
        eprintln!(
            "{name}: {} steps, {} frames, {}x{}, {} KB",
            views.len(),
            a.frames,
            a.width,
            a.height,
            a.gif.len() / 1024
        );
        assert!(a.gif.starts_with(b"GIF89a"), "{name}");
        assert!(
            a.frames >= 2 && a.frames <= MAX_FRAMES,
            "{name}: {}",
            a.frames
        );
        assert!(
            a.gif.len() <= MAX_GIF_BYTES,
            "{name}: {} bytes",
            a.gif.len()
        );
    }
}

/// The referee and store under it, on both databases: series by name in any case,
/// hidden statistics, and the rematch's claim, pressed at once by two processes.
mod store_level {
    use crate::support::backend::{Bench, Kind};
    use crate::support::courier::{alice, bob, carol};
    use photofinish::games::GameKind;
    use photofinish::referee::RefereeError;
    use photofinish::referee::series::Rematch;
    use photofinish::store::RematchClaim;
    use photofinish::vocab::{CampaignId, Phase};

    async fn a_finished_race_in(b: &Bench, series: &str) -> CampaignId {
        let id = b.race(GameKind::DreamMile, &alice(), "").await;
        assert_eq!(b.referee.set_series(id, series).await.unwrap(), "Cup");
        for p in [alice(), bob()] {
            b.referee.join(id, &p, None, None).await.unwrap();
        }
        b.referee.start(id, &alice()).await.unwrap();
        let mut guard = 0;
        while b.referee.overview(id).await.unwrap().phase != Phase::Finished {
            let _ = b.referee.submit(id, &alice().user, "5").await;
            let _ = b.referee.submit(id, &bob().user, "4").await;
            guard += 1;
            assert!(guard < 20, "the race did not finish");
        }
        id
    }

    async fn series_stats_and_one_rematch(kind: Kind) {
        let b = Bench::new(kind).await;
        let first = b.race(GameKind::DreamMile, &carol(), "").await;
        assert_eq!(b.referee.set_series(first, "Cup").await.unwrap(), "Cup");
        b.referee.cancel(first, &carol()).await.unwrap();
        // The second race joins it in another case and keeps the first spelling.
        let id = a_finished_race_in(&b, "CUP").await;
        let t = b.referee.series_table("chan-1", "cup").await.unwrap();
        assert_eq!(
            (t.name.as_str(), t.races.len(), t.finished.len()),
            ("Cup", 2, 1)
        );
        let points: u32 = t.lines.iter().map(|l| l.points).sum();
        assert_eq!(points, 16, "10 and 6: {t:?}");
        assert!(matches!(
            b.referee.series_table("chan-1", "Other").await,
            Err(RefereeError::Invalid(_))
        ));

        // Hidden statistics: refused to others, shown to oneself.
        b.referee.set_stats_hidden(&bob().user, true).await.unwrap();
        let refused = b
            .referee
            .player_stats("guild-1", &bob().user, &alice().user)
            .await;
        assert!(matches!(refused, Err(RefereeError::Invalid(ref s)) if s.contains("hides")));
        let own = b
            .referee
            .player_stats("guild-1", &bob().user, &bob().user)
            .await
            .unwrap();
        assert!(own.hidden);
        assert_eq!(own.games[0].races, 1);
        b.referee
            .set_stats_hidden(&bob().user, false)
            .await
            .unwrap();
        assert!(!b.referee.stats_hidden(&bob().user).await.unwrap());

        // Two processes press Rematch at once: one lobby.
        let (_, other) = b.second_process().await;
        let (bob_, alice_) = (bob(), alice());
        let (x, y) = tokio::join!(b.referee.rematch(id, &bob_), other.rematch(id, &alice_));
        let opened: Vec<CampaignId> = [&x, &y]
            .iter()
            .filter_map(|r| match r {
                Ok(Rematch::Opened { race, .. }) => Some(*race),
                _ => None,
            })
            .collect();
        assert_eq!(opened.len(), 1, "{x:?} {y:?}");
        let new = opened[0];
        assert_eq!(
            b.store.claim_rematch(id, 0).await.unwrap(),
            RematchClaim::Taken(Some(new))
        );
        assert_eq!(
            b.referee
                .rematch(id, &carol())
                .await
                .unwrap_err()
                .to_string(),
            format!("only race {id}'s players can open its rematch")
        );
        assert_eq!(
            b.referee.rematch(id, &bob()).await.unwrap(),
            Rematch::Already(new)
        );
        let t = b.referee.series_table("chan-1", "Cup").await.unwrap();
        assert_eq!(t.races.len(), 3, "the rematch continues the series");
        assert_eq!(b.referee.overview(new).await.unwrap().phase, Phase::Lobby);
        // A race not finished has no rematch.
        assert!(b.referee.rematch(new, &bob()).await.is_err());
    }

    on_both!(series_stats_and_one_rematch);
}
