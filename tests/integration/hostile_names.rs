//! What players write is shown as they wrote it, never as markup.
//!
//! Every game is played through the referee by two players with placeholder names (they
//! order, miss deadlines, get reminders, pause, leave), and everything it announces is
//! kept. Each announcement then has its placeholders replaced, everywhere (names in
//! narration, team labels, orders, views), by each name of a hostile corpus. A small model
//! of Discord's markdown counts what each post would make (links, headings, quotes,
//! lists, mentions, formatting, code): in Discord's words a hostile name must make
//! nothing that the same post with a plain name does not; and laid out as the courier
//! sends it (spread over embeds, cut to Discord's limits) no link, heading, quote or
//! mention may appear, and the reader sees each name as it was written.
//!
//! And through the fake Discord: every message the bot sends or edits says whom it may
//! ping (`allowed_mentions`), and that is exactly whom it means to.

use std::collections::BTreeMap;

use crate::support::backend::{Bench, Kind};
use crate::support::courier::{Recorder, actor};
use crate::support::discord::{FakeDiscord, Harness, Recorded, User, button, custom_ids, text_of};
use photofinish::discord::layout::{self, Layout};
use photofinish::engine::BotLevel;
use photofinish::games::GameKind;
use photofinish::referee::Actor;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::render::code_text;
use photofinish::render::message::Style;
use photofinish::render::post::present;
use photofinish::vocab::Phase;
use serde_json::json;

/// The placeholders the races are played with: unique words, found nowhere else.
const SEAT_A: &str = "Qzxhostilea";
const SEAT_B: &str = "Qzxhostileb";

/// Names a hostile member might choose (the referee strips some of these characters
/// from names; the posts must be safe without relying on that).
fn corpus() -> Vec<String> {
    vec![
        "[Free Nitro](https://e.co/x)".into(),
        "# Heading".into(),
        "## Big".into(),
        "-# small print".into(),
        "> quote".into(),
        ">>> quote all".into(),
        "- list".into(),
        "1. first".into(),
        "@everyone".into(),
        "@here".into(),
        "<@123>".into(),
        "<@&456>".into(),
        "<#789>".into(),
        "<t:1:R>".into(),
        "**bold**".into(),
        "__under__".into(),
        "*it* _it_".into(),
        "~~gone~~".into(),
        "||spoiler||".into(),
        "`code`".into(),
        "```block```".into(),
        "https://e.co/phish".into(),
        "<https://e.co/a>".into(),
        "back\\slash \\*".into(),
        "{user} {at}".into(),
        "\u{202E}desrever".into(),
        "🏃‍♀️ سريع עברית".into(),
        "[a](https://e.co/".to_string() + &"#".repeat(300) + ")",
        "**".repeat(200),
    ]
}

fn host() -> Actor {
    actor("101", SEAT_A)
}
fn other() -> Actor {
    actor("102", SEAT_B)
}

async fn deliver(b: &Bench, rec: &Recorder, out: &mut Vec<(Target, Announcement)>) {
    b.referee.deliver(rec).await.unwrap();
    out.extend(rec.take());
}

/// One race of `game` played through the referee, and everything it announced.
async fn play(game: GameKind) -> Vec<(Target, Announcement)> {
    let b = Bench::new(Kind::Sqlite).await;
    let rec = Recorder::default();
    let mut out = Vec::new();
    let id = b.race(game, &host(), "").await;
    b.referee.join(id, &host(), None, None).await.unwrap();
    b.referee.join(id, &other(), None, None).await.unwrap();
    let (min, _) = game.seat_limits(&game.default_options()).unwrap();
    b.referee
        .add_bots(id, &host(), min.max(4) - 2, BotLevel::Heuristic)
        .await
        .unwrap();
    // Both humans are asked every decision: under `auto` a card race may need no prompt.
    for who in [host(), other()] {
        b.referee
            .set_autopilot(id, &who.user, Some("ask"))
            .await
            .unwrap();
    }
    deliver(&b, &rec, &mut out).await;
    // The second player's DMs are closed: the channel is told, with a mention.
    rec.closed_dms.lock().unwrap().push("102".into());
    b.referee.start(id, &host()).await.unwrap();
    for step in 0..15 {
        deliver(&b, &rec, &mut out).await;
        if b.referee.overview(id).await.unwrap().phase != Phase::Running {
            break;
        }
        if step % 3 == 2 {
            // This deadline passes: reminders first, then the default orders.
            b.clock.advance_secs(1900);
            b.referee.tick().await.unwrap();
            deliver(&b, &rec, &mut out).await;
            b.clock.advance_secs(1800);
            b.referee.tick().await.unwrap();
            continue;
        }
        let mut ordered = false;
        for who in [host(), other()] {
            if let Ok(open) = b.referee.open_prompt(id, &who.user).await
                && let Some(choice) = open.prompt.choices.first()
                && b.referee.submit(id, &who.user, &choice.order).await.is_ok()
            {
                ordered = true;
            }
        }
        if !ordered {
            b.clock.advance_secs(3700);
            b.referee.tick().await.unwrap();
        }
    }
    if b.referee.overview(id).await.unwrap().phase == Phase::Running {
        b.referee.pause(id, &host()).await.unwrap();
        b.referee.resume(id, &host()).await.unwrap();
        deliver(&b, &rec, &mut out).await;
        b.referee.leave(id, &other()).await.unwrap();
        // Bots may run the rest of the race as soon as the other player leaves.
        match b.referee.leave(id, &host()).await {
            Ok(()) | Err(photofinish::referee::RefereeError::Finished) => {}
            Err(e) => panic!("{game}: {e}"),
        }
    }
    let mut guard = 0;
    while b.referee.overview(id).await.unwrap().phase == Phase::Running {
        b.clock.advance_secs(7200);
        b.referee.tick().await.unwrap();
        guard += 1;
        assert!(guard < 300, "{game} did not finish");
    }
    deliver(&b, &rec, &mut out).await;
    out
}

/// The announcement with the placeholders replaced by `a` and `b`, everywhere.
fn renamed(x: &Announcement, a: &str, b: &str) -> Announcement {
    let json_text = |s: &str| {
        let quoted = serde_json::to_string(s).unwrap();
        quoted[1..quoted.len() - 1].to_string()
    };
    let text = serde_json::to_string(x)
        .unwrap()
        .replace(SEAT_A, &json_text(a))
        .replace(SEAT_B, &json_text(b));
    serde_json::from_str(&text).unwrap()
}

/// What Discord would make of `text`: each piece of markup it would render, by kind.
fn marks(text: &str) -> BTreeMap<&'static str, usize> {
    let c: Vec<char> = text.chars().collect();
    let mut out: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut add = |k: &'static str| *out.entry(k).or_default() += 1;
    let at = |i: usize, s: &str| {
        let s: Vec<char> = s.chars().collect();
        c.len() >= i + s.len() && c[i..i + s.len()] == s[..]
    };
    let mut i = 0;
    let mut line_start = true;
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if line_start && (ch == ' ' || ch == '\t') {
            i += 1;
            continue;
        }
        if line_start {
            line_start = false;
            if ["# ", "## ", "### ", "-# "].iter().any(|p| at(i, p)) {
                add("heading");
            } else if ch == '>' {
                add("quote");
            } else if ["- ", "* ", "+ "].iter().any(|p| at(i, p)) {
                add("list");
            } else if ch.is_ascii_digit() {
                let mut j = i;
                while j < c.len() && c[j].is_ascii_digit() {
                    j += 1;
                }
                if at(j, ". ") || at(j, ") ") {
                    add("list");
                }
            }
        }
        if ch == '\\' && c.get(i + 1).is_some_and(char::is_ascii_punctuation) {
            i += 2;
            continue;
        }
        if at(i, "```") {
            let close = (i + 3..c.len()).find(|&j| at(j, "```"));
            if let Some(j) = close {
                add("code block");
                i = j + 3;
                continue;
            }
        }
        if ch == '`'
            && let Some(len) = c[i + 1..].iter().position(|&x| x == '`')
        {
            add("code");
            i += len + 2;
            continue;
        }
        if ch == ']' && c.get(i + 1) == Some(&'(') {
            add("masked link");
        }
        if at(i, "http://") || at(i, "https://") {
            add("link");
        }
        if ch == '<'
            && ["<@", "<#", "<:", "<a:", "</", "<http"]
                .iter()
                .any(|p| at(i, p))
        {
            add("mention");
        }
        if at(i, "<t:") {
            add("timestamp");
        }
        if at(i, "@everyone") || at(i, "@here") {
            add("everyone");
        }
        if matches!(ch, '*' | '_' | '~' | '|') {
            add("formatting");
        }
        i += 1;
    }
    out
}

/// The markup of a whole message, whose texts a long name may spread differently.
fn all_marks(texts: &[String]) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for t in texts {
        for (k, n) in marks(t) {
            *out.entry(k).or_default() += n;
        }
    }
    out
}

/// A post's texts in Discord's words, before they are fitted to Discord's limits: the
/// title, the text (with the track in a code block, as the layout puts it), the fields
/// and the footer (which the layout moves into the text when it holds a timestamp).
fn post_texts(a: &Announcement) -> Vec<String> {
    let post = present(a, &Style::discord());
    let mut out = vec![post.title.clone(), post.body.clone()];
    if let Some(track) = &post.track {
        out.push(format!("```\n{}\n```", code_text(track)));
    }
    for (n, v) in &post.fields {
        out.push(n.clone());
        out.push(v.clone());
    }
    out.extend(post.footer.clone());
    out
}

/// Every place of a message where Discord renders markup (footers and buttons do not).
fn rendered_texts(l: &Layout) -> Vec<String> {
    let mut out: Vec<String> = l.content.iter().cloned().collect();
    for e in &l.embeds {
        out.push(e.title.clone());
        out.push(e.description.clone());
        for (n, v) in &e.fields {
            out.push(n.clone());
            out.push(v.clone());
        }
    }
    out
}

/// The text a reader sees: Discord hides a backslash before punctuation.
fn as_read(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&n) = chars.peek()
            && n.is_ascii_punctuation()
        {
            out.push(n);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

fn zone() -> chrono::FixedOffset {
    chrono::FixedOffset::east_opt(0).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_names_make_no_markup_in_any_post_of_any_game() {
    let corpus = corpus();
    for game in GameKind::all() {
        let played = play(game).await;
        let kinds: std::collections::BTreeSet<String> = played
            .iter()
            .map(|(_, a)| {
                serde_json::to_value(a).unwrap()["kind"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        for kind in [
            "lobby",
            "started",
            "turn-resolved",
            "status",
            "prompt",
            "finished",
        ] {
            assert!(kinds.contains(kind), "{game}: no {kind} post in {kinds:?}");
        }
        let mut shown = vec![false; corpus.len()];
        for (_, a) in &played {
            let plain_a = renamed(a, "Plainnamea", "Plainnameb");
            let plain = layout::announcement(&plain_a, zone());
            let plain_marks = all_marks(&rendered_texts(&plain));
            let want = all_marks(&post_texts(&plain_a));
            for (n, name) in corpus.iter().enumerate() {
                let partner = &corpus[(n + 1) % corpus.len()];
                let hostile_a = renamed(a, name, partner);
                // The post, before it is fitted to Discord's limits: it may make only the
                // markup it makes with plain names.
                let texts = post_texts(&hostile_a);
                for (kind, count) in &all_marks(&texts) {
                    assert!(
                        want.get(kind).copied().unwrap_or(0) >= *count,
                        "{game}: the name {name:?} makes a {kind} in\n{}",
                        texts.join("\n--\n"),
                    );
                }
                // The message as sent: however a long name spreads it over embeds and
                // fields, and cuts it, no link, heading, quote or mention comes out that
                // the plain one lacks (a notice mentions its player); and it pings only
                // whom the plain one pings.
                let hostile = layout::announcement(&hostile_a, zone());
                assert_eq!(hostile.ping, plain.ping, "{game}: {name:?}");
                assert_eq!(hostile.content, plain.content, "{game}: {name:?}");
                let texts = rendered_texts(&hostile);
                let got = all_marks(&texts);
                for kind in [
                    "masked link",
                    "link",
                    "heading",
                    "quote",
                    "mention",
                    "everyone",
                ] {
                    assert!(
                        got.get(kind) <= plain_marks.get(kind),
                        "{game}: the name {name:?} makes a {kind} in\n{}",
                        texts.join("\n--\n"),
                    );
                }
                for t in &texts {
                    assert!(
                        !t.contains(['\u{202E}', '\u{202D}', '\u{2066}', '\u{2067}']),
                        "{game}: a direction control from {name:?} in {t}"
                    );
                }
                if texts.iter().any(|t| as_read(t).contains(name.as_str())) {
                    shown[n] = true;
                }
            }
        }
        // Short names without controls are shown to the reader exactly as written.
        for (n, name) in corpus.iter().enumerate() {
            if name.chars().count() <= 32 && !name.contains('\u{202E}') {
                assert!(shown[n], "{game}: {name:?} is never shown as written");
            }
        }
    }
}

#[test]
fn the_markdown_model_sees_what_discord_would_render() {
    let m = marks("[Free Nitro](https://e.co/x)\n# Head\n> q\n<@1> @everyone **b** `c`");
    for kind in [
        "masked link",
        "link",
        "heading",
        "quote",
        "mention",
        "everyone",
        "formatting",
        "code",
    ] {
        assert!(m.contains_key(kind), "{kind}: {m:?}");
    }
    let escaped = photofinish::render::escape_markdown(
        "[Free Nitro](https://e.co/x)\n# Head\n> q\n<@1> @everyone **b** `c`",
    );
    assert!(
        marks(&escaped).is_empty(),
        "{escaped}: {:?}",
        marks(&escaped)
    );
    assert_eq!(
        as_read(&escaped),
        "[Free Nitro](https://e.co/x)\n# Head\n> q\n<@1> @everyone **b** `c`"
    );
}

/// Where a request to Discord carries a message: its JSON, or `None` for other requests
/// (and for an interaction's bare acknowledgement, which carries none).
fn message_body(r: &Recorded) -> Option<&serde_json::Value> {
    let parts: Vec<&str> = r.path.trim_start_matches('/').split('/').collect();
    match (r.method.as_str(), parts.as_slice()) {
        ("POST" | "PATCH", ["channels", _, "messages", ..])
        | ("POST", ["webhooks", _, _])
        | ("PATCH", ["webhooks", _, _, "messages", _]) => Some(&r.body),
        ("POST", ["interactions", _, _, "callback"]) => {
            r.body.get("data").filter(|d| d.is_object())
        }
        _ => None,
    }
}

/// The user a message means to ping: the bot pings only by a content that is one mention.
fn meant_ping(body: &serde_json::Value) -> Vec<String> {
    let content = body["content"].as_str().unwrap_or("");
    content
        .strip_prefix("<@")
        .and_then(|r| r.strip_suffix('>'))
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()))
        .map(|id| vec![id.to_string()])
        .unwrap_or_default()
}

/// Every message the bot sends or edits says whom it may ping: exactly the user it means
/// to (a closed-DM notice pings that player), else nobody; never everyone or a role. This
/// holds for the bot's own answers, the outbox's posts and edits, DMs, and what poise
/// answers by itself (a server's command in a DM).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_pings_only_whom_it_means_to() {
    let h = Harness::start().await;
    let alice = User::new(101, "[Free Nitro](https://e.co/x)");
    let bob = User::new(102, "# Bob");
    h.fake.close_dms(bob.id);
    h.open_lobby("dream-mile", "turn=1h reminders=30m", &alice, &[&bob], 1)
        .await;
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    let prompt = h.fake.wait_dm(alice.id, 2).await;
    let _ = h.click(&alice, &prompt, &button(&prompt, "7")).await;
    let _ = h.slash(&bob, "order", &[("text", json!("5"))]).await;
    let _ = h.slash(&bob, "status", &[]).await;
    h.settle().await;
    h.advance(3600);
    h.settle().await;
    // `/race new` in a DM: poise answers it itself.
    let dm = h.fake.open_dm(alice.id);
    let id = h
        .fake
        .slash(&alice, dm, "new", &[("game", json!("dream-mile"))]);
    let answer = h.fake.response(id).await;
    assert!(text_of(&answer).contains("in DMs"), "{answer}");

    let mut checked = 0;
    let mut pinged = 0;
    for r in h.fake.requests() {
        let Some(body) = message_body(&r) else {
            continue;
        };
        let what = format!("{} {}: {body}", r.method, r.path);
        let allowed = body
            .get("allowed_mentions")
            .unwrap_or_else(|| panic!("no allowed_mentions in {what}"));
        assert_eq!(allowed["parse"], json!([]), "{what}");
        let roles = allowed["roles"].as_array().map_or(0, Vec::len);
        assert_eq!(roles, 0, "{what}");
        let users: Vec<String> = allowed["users"]
            .as_array()
            .map(|u| {
                u.iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), String::from))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(users, meant_ping(body), "{what}");
        checked += 1;
        pinged += usize::from(!users.is_empty());
    }
    assert!(checked > 10, "only {checked} messages");
    assert!(pinged >= 1, "the closed-DM notice pings Bob");
    // The names were shown as written, never as markup.
    for m in h.fake.messages() {
        let t = text_of(&m);
        let made = marks(&t);
        for kind in ["masked link", "link", "heading"] {
            assert!(!made.contains_key(kind), "a {kind}: {t}");
        }
    }
}

/// Orders a hostile player might type: markup, a backtick that would end the bot's code
/// span, mentions, and a long one.
fn hostile_orders() -> Vec<String> {
    vec![
        "[Free Nitro](https://e.co/x) @everyone # Heading".into(),
        "x` [Free Nitro](https://e.co/x) # Heading `y".into(),
        "`` @here <@&456> <#789> > quote".into(),
        "<@999> 7".into(),
        format!("[a](https://e.co/{})", "A".repeat(400)),
    ]
}

/// The kinds of markup a refusal must never make from what a player typed.
const NEVER: [&str; 6] = [
    "masked link",
    "link",
    "heading",
    "quote",
    "mention",
    "everyone",
];

/// A refusal's texts, as the bot sends it: the embed, and the bold line above a prompt.
fn refusal_texts(e: &photofinish::referee::RefereeError) -> Vec<String> {
    let mut texts = rendered_texts(&photofinish::discord::reply::refusal(e));
    texts.push(format!("**{}**", photofinish::discord::reply::sentence(e)));
    texts
}

/// A hostile order sent to every game is refused, and the refusal, which quotes what was
/// typed, makes no link, heading, quote or mention, and shows at most 100 characters of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_orders_are_refused_without_markup_in_every_game() {
    for game in GameKind::all() {
        let b = Bench::new(Kind::Sqlite).await;
        let id = b.race(game, &host(), "").await;
        b.referee.join(id, &host(), None, None).await.unwrap();
        b.referee.join(id, &other(), None, None).await.unwrap();
        let (min, _) = game.seat_limits(&game.default_options()).unwrap();
        b.referee
            .add_bots(id, &host(), min.max(4) - 2, BotLevel::Heuristic)
            .await
            .unwrap();
        // Asked every decision, so a prompt is open to send hostile orders to.
        for who in [host(), other()] {
            b.referee
                .set_autopilot(id, &who.user, Some("ask"))
                .await
                .unwrap();
        }
        b.referee.start(id, &host()).await.unwrap();
        let mut refused = 0;
        let mut echoed = 0;
        for who in [host(), other()] {
            if b.referee.open_prompt(id, &who.user).await.is_err() {
                continue;
            }
            for order in hostile_orders() {
                let e = b
                    .referee
                    .submit(id, &who.user, &order)
                    .await
                    .expect_err(&format!("{game}: {order:?} was taken"));
                refused += 1;
                let said = e.to_string().to_lowercase();
                if ["nitro", "aaaa", "<@999>"].iter().any(|w| said.contains(w)) {
                    echoed += 1;
                }
                let texts = refusal_texts(&e);
                let made = all_marks(&texts);
                for kind in NEVER {
                    assert!(
                        !made.contains_key(kind),
                        "{game}: {order:?} makes a {kind} in\n{}",
                        texts.join("\n--\n")
                    );
                }
                for t in &texts {
                    assert!(
                        !t.contains(&"A".repeat(101)),
                        "{game}: more than 100 typed characters in {t}"
                    );
                }
            }
        }
        assert!(refused > 0, "{game}: nobody had an order to send");
        assert!(
            echoed > 0,
            "{game}: no refusal quoted the order, so nothing was tested"
        );
    }
}

/// Through the fake Discord, every answer that echoes what a player typed (an order by
/// DM or `/race order`, a time for `/race deadline`, a game's name, options, a
/// preference) makes no link, heading, quote or mention, and shows at most 100
/// characters of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_that_echo_typed_text_make_no_markup() {
    let h = Harness::start().await;
    let alice = User::new(101, "Alice");
    let bob = User::new(102, "Bob");
    h.open_race("dream-mile", "turn=1h", &alice, &[&bob]).await;
    let mut answers = Vec::new();
    for order in &hostile_orders() {
        let before = h.fake.dms_to(alice.id).len();
        h.fake.dm(&alice, order);
        answers.push(h.fake.wait_dm(alice.id, before + 1).await);
        let text = |o: &str| json!(o);
        answers.push(h.slash(&alice, "order", &[("text", text(order))]).await);
        answers.push(h.slash(&alice, "deadline", &[("set", text(order))]).await);
        answers.push(
            h.slash(&alice, "deadline", &[("extend", text(order))])
                .await,
        );
        answers.push(h.slash(&alice, "new", &[("game", text(order))]).await);
        answers.push(
            h.slash(&alice, "settings", &[("change", text(order))])
                .await,
        );
        answers.push(
            h.slash(&alice, "preference", &[("text", text(order))])
                .await,
        );
    }
    for a in &answers {
        let t = text_of(a);
        let made = marks(&t);
        for kind in NEVER {
            assert!(!made.contains_key(kind), "a {kind} in {t}");
        }
        assert!(
            !t.contains(&"A".repeat(101)),
            "more than 100 typed characters in {t}"
        );
    }
    assert!(
        answers.iter().any(|a| text_of(a).contains("Nitro")),
        "no answer quoted what was typed"
    );
}

/// The host's answers to `/race replace` and `/race kick`, and the new player's to the
/// offer's button, name the seat as written, never as markup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replace_and_kick_answers_show_names_as_written() {
    let h = Harness::start().await;
    let alice = User::new(101, "Alice");
    let bob = User::new(102, "Bob");
    let carol = User::new(103, "Carol");
    let name = "[Nitro](https://e.co/x) # Hi";
    let a = h
        .slash(
            &alice,
            "new",
            &[("game", json!("dream-mile")), ("options", json!("turn=1h"))],
        )
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
    let a = h.slash(&alice, "join", &[]).await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    let a = h.slash(&bob, "join", &[("name", json!(name))]).await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    h.settle().await;
    let carol_option = FakeDiscord::user_option(&carol);
    let offered = h
        .slash(
            &alice,
            "replace",
            &[("seat", json!(name)), ("user", carol_option.clone())],
        )
        .await;
    assert!(text_of(&offered).contains("seat is offered"), "{offered}");
    let offer = h
        .fake
        .wait_message("the offer", |m| {
            custom_ids(m).iter().any(|c| c.starts_with("pf:accept:"))
        })
        .await;
    let accept = custom_ids(&offer)
        .into_iter()
        .find(|c| c.starts_with("pf:accept:"))
        .unwrap();
    let accepted = h.click(&carol, &offer, &accept).await;
    assert!(text_of(&accepted).contains("You run"), "{accepted}");
    let kicked = h.slash(&alice, "kick", &[("user", carol_option)]).await;
    assert!(text_of(&kicked).contains("is out of the race"), "{kicked}");
    for a in [&offered, &accepted, &kicked] {
        let t = text_of(a);
        // The bot's own mention of Carol, who is offered the seat, is meant.
        let made = marks(&t.replace("<@103>", "Carol"));
        for kind in NEVER {
            assert!(!made.contains_key(kind), "a {kind} in {t}");
        }
        assert!(as_read(&t).contains(name), "the name as written in {t}");
    }
}
