//! End to end through the fake Discord: a Dream Mile race with `clock=` (a
//! bank per seat), one player with quiet hours, one away, and `nudge=`. Every DM and
//! channel message the bot sent is asserted with the test clock's time it was sent at,
//! and each nudge mentions exactly the seats still owing an order. Also the commands of
//! time settings on Discord: their registration within Discord's limits, `/photofinish config`,
//! and `/race back` over two races of different games.

use crate::support::discord::*;
use serde_json::json;

fn players() -> Vec<User> {
    ["Alice", "Bob", "Carol", "Dave"]
        .iter()
        .enumerate()
        .map(|(i, n)| User::new(101 + i as u64, n))
        .collect()
}

/// The messages the bot posted (channel and DMs), read in order, each stamped with the
/// test clock's time when the bot was last settled.
struct Timeline {
    seen: usize,
    names: Vec<(String, String)>,
}

impl Timeline {
    fn new(h: &Harness, p: &[User]) -> Timeline {
        let names = p
            .iter()
            .map(|u| (h.fake.open_dm(u.id).to_string(), format!("DM {}", u.name)))
            .collect();
        Timeline { seen: 0, names }
    }

    /// New posts since the last call, sorted: `HH:MM to: the title, or the content's first
    /// line`.
    async fn take(&mut self, h: &Harness) -> Vec<String> {
        h.settle().await;
        let at = chrono::DateTime::from_timestamp_millis(h.clock.now_ms()).unwrap();
        let requests = h.fake.requests();
        let mut new: Vec<String> = requests[self.seen..]
            .iter()
            .filter(|r| r.method == "POST" && r.path.ends_with("/messages") && r.status < 300)
            .map(|r| {
                let channel = r.path.split('/').nth(2).unwrap_or("").to_string();
                let to = if channel == CHANNEL.to_string() {
                    "channel".to_string()
                } else {
                    self.names
                        .iter()
                        .find(|(c, _)| *c == channel)
                        .map(|(_, n)| n.clone())
                        .unwrap_or(channel)
                };
                let title = r.body["embeds"][0]["title"].as_str().unwrap_or("");
                // A notice's title is only the race's name: its text is what it says.
                let said = r.body["embeds"][0]["description"].as_str().unwrap_or("");
                let notice;
                let title = if title.starts_with("Race #") && !title.contains(':') {
                    notice = format!("{title}: {}", said.lines().next().unwrap_or(""));
                    notice.as_str()
                } else {
                    title
                };
                let first = if title.is_empty() {
                    r.body["content"]
                        .as_str()
                        .unwrap_or("")
                        .lines()
                        .next()
                        .unwrap_or("")
                } else {
                    title
                };
                format!("{} {to}: {first}", at.format("%H:%M"))
            })
            .collect();
        self.seen = requests.len();
        // Channel posts and DMs go out on separate lanes: their order within one moment
        // is not fixed.
        new.sort();
        new
    }
}

fn latest_status(h: &Harness) -> String {
    let m = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .rfind(|m| text_of(m).contains("Deadline") || text_of(m).contains("bank"))
        .unwrap();
    text_of(&m)
}

/// Compares the posts of one moment with what the rules say they are.
fn same(at: &str, got: &[String], want: &[&str]) {
    assert_eq!(got, want, "at {at}: {got:#?}");
}

/// The race runs from 00:00 UTC on Thursday 1 Jan 2026 (the harness's clock). Banks of
/// 2 hours, 30 minutes more per move; Bob sleeps 02:00-06:00 in London (UTC in winter);
/// Dave goes away at 00:05, so his seat plays at once, and comes back at 05:10.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dream_mile_race_on_clocks_with_quiet_hours_absence_and_a_nudge() {
    let h = Harness::start().await;
    let p = players();
    let (alice, bob, carol, dave) = (&p[0], &p[1], &p[2], &p[3]);
    let mut t = Timeline::new(&h, &p);
    let a = h
        .slash(
            bob,
            "me",
            &[
                ("timezone", json!("Europe/London")),
                ("quiet", json!("02:00-06:00")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("02:00-06:00"), "{a}");
    h.open_race(
        "dream-mile",
        "clock=2h+30m nudge=30m",
        alice,
        &[bob, carol, dave],
    )
    .await;
    let opened = t.take(&h).await;
    same(
        "opened",
        &opened,
        &[
            "00:00 DM Alice: Dream Mile race #1: Turn 1 of 8, Alice to order",
            "00:00 DM Alice: You're in the race",
            "00:00 DM Bob: Dream Mile race #1: Turn 1 of 8, Bob to order",
            "00:00 DM Bob: You're in the race",
            "00:00 DM Carol: Dream Mile race #1: Turn 1 of 8, Carol to order",
            "00:00 DM Carol: You're in the race",
            "00:00 DM Dave: Dream Mile race #1: Turn 1 of 8, Dave to order",
            "00:00 DM Dave: You're in the race",
            "00:00 channel: Dream Mile race #1 is off!",
            "00:00 channel: Dream Mile race #1: Turn 1 of 8",
            "00:00 channel: Dream Mile race #1: lobby",
        ],
    );
    let alice_prompt = h.fake.wait_dm(alice.id, 2).await;
    let bob_prompt = h.fake.wait_dm(bob.id, 2).await;
    // Each prompt names its own bank's end: Bob's 02:00 falls in his quiet hours: 06:00.
    assert!(
        text_of(&alice_prompt).contains("<t:1767232800:F>"),
        "{alice_prompt}"
    );
    assert!(
        text_of(&bob_prompt).contains("<t:1767247200:F>"),
        "{bob_prompt}"
    );
    let st = latest_status(&h);
    assert!(
        st.contains("… Bob · bank 2h, ends <t:1767247200:F>"),
        "{st}"
    );

    turn_one(&h, &mut t, &p).await;
    turn_two(&h, &mut t, &p).await;
    assert_discord_was_happy(&h);
}

/// Turn 1 from 00:05: Dave goes away, Alice orders, the nudge, Carol's bank runs out and
/// her late order is refused.
async fn turn_one(h: &Harness, t: &mut Timeline, p: &[User]) {
    let (alice, carol, dave) = (&p[0], &p[2], &p[3]);
    // 00:05 Dave goes away for 3 days: his turn is played at once, the channel told once.
    h.advance(300);
    let a = h.slash(dave, "away", &[("days", json!(3))]).await;
    assert!(
        text_of(&a).contains("You are away until Sun 4 Jan 00:05 (UTC): in race #1, forced and obvious orders are played by autopilot and the rest by the bot, at once. `/race back` ends it."),
        "{a}"
    );
    let away = t.take(h).await;
    same(
        "away",
        &away,
        &[
            "00:05 DM Dave: Dream Mile race #1: Dave",
            "00:05 channel: Race #1: Dave is away until Sun 4 Jan 00:05 (UTC); their runner is on autopilot.",
        ],
    );
    // The DM is Dave's view, saying what was played for him; his bank stopped at 1h55m.
    let told = h.fake.wait_dm(dave.id, 3).await;
    assert!(
        text_of(&told).contains("Played for you (Turn 1 of 8): "),
        "{told}"
    );
    let st = latest_status(h);
    assert!(
        st.contains("✓ Dave receipt ") && st.contains(" · bank 1h55m\n"),
        "{st}"
    );

    // 00:10 Alice orders: her bank stops.
    h.advance(300);
    h.fake.dm(alice, "6");
    h.fake.wait_dm(alice.id, 3).await;
    let ordered = t.take(h).await;
    same("ordered", &ordered, &["00:10 DM Alice: Race #1: order in"]);
    let st = latest_status(h);
    assert!(
        st.contains("✓ Alice") && st.contains("bank 1h50m\n"),
        "{st}"
    );

    // 01:30, half an hour before the first bank ends: the nudge names Bob and Carol, the
    // seats still owing; Dave's seat has played.
    h.advance(80 * 60);
    let nudged = t.take(h).await;
    same(
        "nudged",
        &nudged,
        &["01:30 channel: Race #1: orders still to come"],
    );
    let nudge = h
        .fake
        .requests()
        .into_iter()
        .find(|r| {
            r.is("POST", &format!("/channels/{CHANNEL}/messages"))
                && r.body["content"].as_str().is_some_and(|c| c.contains("<@"))
        })
        .unwrap();
    assert_eq!(nudge.body["content"], "<@102> <@103>");
    assert_eq!(
        nudge.body["allowed_mentions"],
        json!({"parse": [], "roles": [], "users": ["102", "103"]})
    );

    // 02:00 Carol's bank runs out (Bob's runs on to 06:00); her order is refused.
    h.advance(30 * 60);
    let out = t.take(h).await;
    same("02:00", &out, &[]);
    let st = latest_status(h);
    assert!(
        st.contains("Carol · bank ran out: the default order plays"),
        "{st}"
    );
    h.advance(10 * 60);
    h.fake.dm(carol, "5");
    let refused = h.fake.wait_dm(carol.id, 3).await;
    assert!(text_of(&refused).contains("Your bank ran out in this step, so your default order plays; your bank is 30m for the next step."), "{refused}");
    let refused = t.take(h).await;
    // The refusal comes with the prompt again.
    same(
        "refused",
        &refused,
        &["02:10 DM Carol: Dream Mile race #1: Turn 1 of 8, Carol to order"],
    );
}

/// Turn 2 from 05:00 (Bob orders in his quiet hours' extra time, turn 1 resolves): Dave's
/// seat plays at once again, he comes back at 05:10; the banks
/// run out one by one, and the nudge names Alice alone; turn 3 asks Dave again.
async fn turn_two(h: &Harness, t: &mut Timeline, p: &[User]) {
    let (bob, dave) = (&p[1], &p[3]);
    // 05:00 Bob orders: the turn resolves, Carol's default played; turn 2's prompts.
    h.advance(170 * 60);
    h.fake.dm(bob, "5");
    h.fake.wait_dm(bob.id, 3).await;
    let resolved = t.take(h).await;
    same(
        "resolved",
        &resolved,
        &[
            "05:00 DM Alice: Dream Mile race #1: Turn 2 of 8, Alice to order",
            "05:00 DM Bob: Dream Mile race #1: Turn 2 of 8, Bob to order",
            "05:00 DM Bob: Race #1: order in",
            "05:00 DM Carol: Dream Mile race #1: Turn 2 of 8, Carol to order",
            "05:00 DM Dave: Dream Mile race #1: Dave",
            "05:00 channel: Dream Mile race #1: Turn 1 of 8",
        ],
    );
    let turn1 = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .map(|m| text_of(&m))
        .find(|t| t.contains("Orders and receipts"))
        .unwrap();
    assert!(
        turn1.contains("Missed orders: Carol: ") && turn1.contains("(played for them)"),
        "{turn1}"
    );
    // Dave's order, played at once while he was away, is his own, not a missed one.
    assert!(
        turn1.contains("\nDave `") && !turn1.contains("Dave: played"),
        "{turn1}"
    );
    // Turn 2 from 05:00: Alice 2h - 10m + 30m, capped at the starting 2h (07:00); Bob
    // was charged his whole 2h, not his night: 30m, whose 05:30 end is in his quiet
    // hours (06:00); Carol 30m from her refill (05:30).
    let st = latest_status(h);
    for line in [
        "… Alice · bank 2h, ends <t:1767250800:F>",
        "… Bob · bank 30m, ends <t:1767247200:F>",
        "… Carol · bank 30m, ends <t:1767245400:F>",
        " · bank 2h\n",
    ] {
        assert!(st.contains(line), "{line} in {st}");
    }

    // 05:10 Dave is back: the channel is told; his next step asks him again.
    h.advance(10 * 60);
    let a = h.slash(dave, "back", &[]).await;
    assert!(
        text_of(&a).contains("Your absence is over in race #1; the next step asks you again."),
        "{a}"
    );
    let back = t.take(h).await;
    same(
        "back",
        &back,
        &["05:10 channel: Race #1: Dave is back; their runner is theirs again."],
    );

    // Turn 2 opened with 30m to Carol's end: no nudge (nothing is left to warn of).
    // 05:30 Carol's bank runs out, 06:00 Bob's (his quiet hours' end): only the status.
    h.advance(20 * 60);
    let out = t.take(h).await;
    same("05:30", &out, &[]);
    h.advance(30 * 60);
    let out = t.take(h).await;
    same("06:00", &out, &[]);
    let st = latest_status(h);
    for line in [
        "… Alice · bank 1h, ends <t:1767250800:F>",
        "Bob · bank ran out: the default order plays",
        "Carol · bank ran out: the default order plays",
    ] {
        assert!(st.contains(line), "{line} in {st}");
    }
    // 06:30, half an hour before Alice's 07:00: the nudge names her alone (Bob's and
    // Carol's banks ran out: their default orders play, and an order from them is refused).
    h.advance(30 * 60);
    let out = t.take(h).await;
    same(
        "06:30",
        &out,
        &["06:30 channel: Race #1: orders still to come"],
    );
    let nudges: Vec<_> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| {
            r.is("POST", &format!("/channels/{CHANNEL}/messages"))
                && r.body["content"].as_str().is_some_and(|c| c.contains("<@"))
        })
        .collect();
    assert_eq!(nudges.len(), 2);
    assert_eq!(nudges[1].body["content"], "<@101>");
    assert_eq!(
        nudges[1].body["allowed_mentions"],
        json!({"parse": [], "roles": [], "users": ["101"]})
    );
    assert_eq!(
        nudges[1].body["embeds"][0]["description"],
        "Turn 2 of 8 is due <t:1767250800:F> (<t:1767250800:R>). Still to order: Alice (<@101>)."
    );
    // 07:00 Alice's bank runs out: turn 2 resolves; turn 3 asks Dave again.
    h.advance(30 * 60);
    let out = t.take(h).await;
    same(
        "07:00",
        &out,
        &[
            "07:00 DM Alice: Dream Mile race #1: Turn 3 of 8, Alice to order",
            "07:00 DM Bob: Dream Mile race #1: Turn 3 of 8, Bob to order",
            "07:00 DM Carol: Dream Mile race #1: Turn 3 of 8, Carol to order",
            "07:00 DM Dave: Dream Mile race #1: Turn 3 of 8, Dave to order",
            "07:00 channel: Dream Mile race #1: Turn 2 of 8",
        ],
    );
    let st = latest_status(h);
    assert!(
        st.contains("… Dave · bank 2h, ends <t:1767258000:F>"),
        "{st}"
    );
    let texts = channel_texts(h);
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.contains("Dave is away until"))
            .count(),
        1,
        "{texts:#?}"
    );
}

/// `/race` holds Discord's 25 subcommands at most, and the registration passes Discord's
/// spec (the fake refuses anything else): the server settings are `/photofinish config`,
/// shown by Discord only to members with Manage Server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_commands_register_within_discord_s_limits() {
    let h = Harness::start().await;
    let put = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .expect("the commands are registered");
    assert_eq!(put.status, 200, "{:?}", put.refused);
    let commands = put.body.as_array().cloned().unwrap_or_default();
    let names = |c: &serde_json::Value| -> Vec<String> {
        let opts = c["options"].as_array().cloned().unwrap_or_default();
        opts.iter()
            .filter_map(|o| o["name"].as_str().map(String::from))
            .collect()
    };
    let top: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(
        top,
        ["race", "photofinish", "Kick from race", "Replace seat…"]
    );
    // The last two are context menus on a member (type 2: USER), which have no options.
    for menu in &commands[2..] {
        assert_eq!(menu["type"], 2, "{menu}");
    }
    let race = names(&commands[0]);
    assert_eq!(race.len(), 25, "{race:?}");
    for sub in ["away", "back", "me", "autopilot", "help"] {
        assert!(race.iter().any(|s| s == sub), "/race {sub} in {race:?}");
    }
    assert!(!race.iter().any(|s| s == "config"), "{race:?}");
    // `/race resume` is `/race pause resume:True`; `/race series` is a group.
    assert!(!race.iter().any(|s| s == "resume"), "{race:?}");
    let series = commands[0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "series")
        .expect("/race series");
    assert_eq!(series["type"], 2, "a subcommand group");
    assert_eq!(names(series), ["new", "standings"]);
    assert!(commands[0]["default_member_permissions"].is_null());
    assert_eq!(names(&commands[1]), ["config"]);
    // Manage Server (1 << 5), as Discord's documentation writes a permission set.
    assert_eq!(commands[1]["default_member_permissions"], "32");
    assert_discord_was_happy(&h);
}

/// `/photofinish config timezone:` sets the server's zone (Manage Server: checked here
/// too, since a server may show the command to others); anyone it reaches may look.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_s_zone_is_set_with_photofinish_config() {
    let h = Harness::start().await;
    let mut admin = User::new(401, "Admin");
    admin.manage = true;
    let member = User::new(402, "Member");
    let a = h.slash(&member, "photofinish config", &[]).await;
    assert!(is_ephemeral(&a), "{a}");
    assert!(
        text_of(&a).contains("This server has no time zone of its own"),
        "{a}"
    );
    let a = h
        .slash(
            &member,
            "photofinish config",
            &[("timezone", json!("Europe/Paris"))],
        )
        .await;
    assert!(
        text_of(&a).contains("Only a member with Manage Server can change the server's settings."),
        "{a}"
    );
    let a = h
        .slash(
            &admin,
            "photofinish config",
            &[("timezone", json!("Mars/Olympus"))],
        )
        .await;
    assert!(text_of(&a).contains("is not a time zone"), "{a}");
    let a = h
        .slash(
            &admin,
            "photofinish config",
            &[("timezone", json!("Europe/Paris"))],
        )
        .await;
    assert!(
        text_of(&a).contains("This server's time zone is now Europe/Paris"),
        "{a}"
    );
    let a = h.slash(&member, "photofinish config", &[]).await;
    assert!(
        text_of(&a).contains("This server's time zone is Europe/Paris."),
        "{a}"
    );
    assert_discord_was_happy(&h);
}

/// One absence over two races of different games: each channel told once that Bob is
/// away and, after `/race back`, once that he is back; a second `/race back` is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn race_back_ends_an_absence_in_two_races_of_different_games() {
    let h = Harness::start().await;
    let alice = User::new(501, "Alice");
    let bob = User::new(502, "Bob");
    const MILES: u64 = CHANNEL + 7;
    h.open_race("dream-mile", "", &alice, &[&bob]).await;
    let ask = |user: &User, sub: &'static str, options: Vec<(&'static str, serde_json::Value)>| {
        let id = h.fake.slash(user, MILES, sub, &options);
        h.fake.response(id)
    };
    let a = ask(&alice, "new", vec![("game", json!("1000-miles"))]).await;
    assert!(text_of(&a).contains("is open"), "{a}");
    for u in [&alice, &bob] {
        let a = ask(u, "join", vec![]).await;
        assert!(text_of(&a).contains("You're in"), "{a}");
    }
    let a = ask(&alice, "start", vec![]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    h.settle().await;

    let a = h.slash(&bob, "away", &[("days", json!(2))]).await;
    assert!(
        text_of(&a).contains("You are away until Sat 3 Jan 00:00 (UTC): in race #1, #2, forced and obvious orders are played by autopilot and the rest by the bot, at once. `/race back` ends it."),
        "{a}"
    );
    h.settle().await;
    h.advance(3600);
    let a = h.slash(&bob, "back", &[]).await;
    assert!(
        text_of(&a).contains("Your absence is over in race #1, #2; the next step asks you again."),
        "{a}"
    );
    h.settle().await;
    for channel in [CHANNEL, MILES] {
        let texts: Vec<String> = h.fake.messages_in(channel).iter().map(text_of).collect();
        let count = |s: &str| texts.iter().filter(|t| t.contains(s)).count();
        assert_eq!(
            count("Bob is away until Sat 3 Jan 00:00 (UTC); their runner is on autopilot."),
            1,
            "{channel}: {texts:#?}"
        );
        assert_eq!(
            count("Bob is back; their runner is theirs again."),
            1,
            "{channel}: {texts:#?}"
        );
    }
    let a = h.slash(&bob, "back", &[]).await;
    assert!(text_of(&a).contains("You are not away."), "{a}");
    assert_discord_was_happy(&h);
}
