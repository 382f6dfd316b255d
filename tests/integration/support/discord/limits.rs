//! Discord's rules, as the fake enforces them: the documented limits on a message body
//! ([`check_message`]), the rate limits ([`FakeDiscord::enforce_rate_limits`]: per second
//! and per route, in real time, as Discord counts them), and the faults a test injects
//! ([`FakeDiscord::inject`]).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::rest::{Answered, error};
use super::state::{Inner, Window};
use super::{FakeDiscord, Recorded};

/// Discord's global limit: requests a second, interactions aside.
pub const GLOBAL_PER_SECOND: u32 = 50;
/// Discord's per-channel message limit: this many per [`ROUTE_WINDOW`].
pub const ROUTE_LIMIT: u32 = 5;
pub const ROUTE_WINDOW: Duration = Duration::from_secs(5);

/// A fault answered instead of the real thing.
#[derive(Clone, Debug)]
pub enum Fault {
    /// An HTTP error (500, 502, 503...) without doing anything.
    Status(u16),
    /// Too many requests (429): `body` puts `retry_after` in the JSON; `headers` sends `Retry-After` and
    /// `X-RateLimit-*`; `global` makes it the global limit.
    RateLimit {
        retry_after: f64,
        global: bool,
        body: bool,
        headers: bool,
    },
}

#[derive(Clone, Debug)]
pub(super) struct Injected {
    method: String,
    path_start: String,
    fault: Fault,
    left: usize,
}

fn chars(v: Option<&Value>) -> usize {
    v.and_then(Value::as_str)
        .map(|s| s.chars().count())
        .unwrap_or(0)
}

/// Discord's documented limits on a message body (content, embeds, components).
pub fn check_message(body: &Value) -> Result<(), String> {
    if chars(body.get("content")) > 2000 {
        return Err("content is over 2000 characters".into());
    }
    if let Some(embeds) = body.get("embeds").and_then(Value::as_array) {
        if embeds.len() > 10 {
            return Err("more than 10 embeds".into());
        }
        let mut total = 0;
        for e in embeds {
            let title = chars(e.get("title"));
            let description = chars(e.get("description"));
            let footer = chars(e.get("footer").and_then(|f| f.get("text")));
            if title > 256 {
                return Err("embed title over 256".into());
            }
            if description > 4096 {
                return Err("embed description over 4096".into());
            }
            if footer > 2048 {
                return Err("embed footer over 2048".into());
            }
            total += title + description + footer;
            let fields = e
                .get("fields")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if fields.len() > 25 {
                return Err("more than 25 fields".into());
            }
            for f in &fields {
                let (n, v) = (chars(f.get("name")), chars(f.get("value")));
                if n == 0 || v == 0 {
                    return Err("an empty field name or value".into());
                }
                if n > 256 || v > 1024 {
                    return Err("field name over 256 or value over 1024".into());
                }
                total += n + v;
            }
        }
        if total > 6000 {
            return Err(format!("embeds total {total} characters, over 6000"));
        }
    }
    if let Some(rows) = body.get("components").and_then(Value::as_array) {
        if rows.len() > 5 {
            return Err("more than 5 action rows".into());
        }
        let mut ids = HashSet::new();
        for row in rows {
            if row.get("type").and_then(Value::as_u64) != Some(1) {
                return Err("a top-level component that is not an action row".into());
            }
            let items = row
                .get("components")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if items.is_empty() {
                return Err("an empty action row".into());
            }
            let selects = items
                .iter()
                .filter(|c| c.get("type").and_then(Value::as_u64) != Some(2))
                .count();
            if selects > 0 && items.len() > 1 {
                return Err("a select menu must be alone in its row".into());
            }
            if items.len() > 5 {
                return Err("more than 5 buttons in a row".into());
            }
            for c in &items {
                let id = c.get("custom_id").and_then(Value::as_str).unwrap_or("");
                if id.is_empty() || id.chars().count() > 100 {
                    return Err(format!("custom_id `{id}` empty or over 100"));
                }
                if !ids.insert(id.to_string()) {
                    return Err(format!("duplicate custom_id `{id}`"));
                }
                if chars(c.get("label")) > 80 {
                    return Err("button label over 80".into());
                }
                if let Some(options) = c.get("options").and_then(Value::as_array) {
                    if options.is_empty() || options.len() > 25 {
                        return Err("a select menu needs 1 to 25 options".into());
                    }
                    for o in options {
                        if chars(o.get("label")) > 100 || chars(o.get("value")) > 100 {
                            return Err("select option over 100".into());
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The rate-limit bucket of a request, as Discord keys it: message routes per channel.
fn route_bucket(method: &Method, path: &str) -> Option<String> {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match (method.as_str(), parts.as_slice()) {
        ("POST", ["channels", c, "messages"]) => Some(format!("POST /channels/{c}/messages")),
        ("PATCH", ["channels", c, "messages", _]) => Some(format!("PATCH /channels/{c}/messages")),
        _ => None,
    }
}

/// Interaction callbacks and follow-ups are outside the global limit.
fn counts_globally(path: &str) -> bool {
    !path.starts_with("/interactions/") && !path.starts_with("/webhooks/")
}

fn too_many(retry_after: f64, global: bool, body: bool, headers: bool, why: &str) -> Answered {
    let json = if body {
        json!({"message": "You are being rate limited.", "retry_after": retry_after, "global": global, "code": 0})
    } else {
        json!({"message": "You are being rate limited.", "code": 0})
    };
    let mut resp = (StatusCode::TOO_MANY_REQUESTS, axum::Json(json)).into_response();
    if headers {
        let h = resp.headers_mut();
        let secs = format!("{retry_after:.3}");
        h.insert("retry-after", secs.parse().unwrap());
        h.insert(
            "x-ratelimit-limit",
            ROUTE_LIMIT.to_string().parse().unwrap(),
        );
        h.insert("x-ratelimit-remaining", "0".parse().unwrap());
        h.insert("x-ratelimit-reset-after", secs.parse().unwrap());
        h.insert(
            "x-ratelimit-scope",
            (if global { "global" } else { "user" }).parse().unwrap(),
        );
        if global {
            h.insert("x-ratelimit-global", "true".parse().unwrap());
        }
    }
    (resp, 429, Some(why.to_string()))
}

/// An injected fault, or Discord's rate limits, answered before the request is served.
pub(super) fn before_answer(inner: &mut Inner, method: &Method, path: &str) -> Option<Answered> {
    if let Some(i) = inner
        .faults
        .iter()
        .position(|f| f.left > 0 && f.method == method.as_str() && path.starts_with(&f.path_start))
    {
        inner.faults[i].left -= 1;
        let fault = inner.faults[i].fault.clone();
        return Some(match fault {
            Fault::Status(code) => {
                let status = StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_GATEWAY);
                (
                    error(status, 0, &format!("{code}: injected")),
                    code,
                    Some(format!("asked: {code}")),
                )
            }
            Fault::RateLimit {
                retry_after,
                global,
                body,
                headers,
            } => too_many(retry_after, global, body, headers, "asked: rate limited"),
        });
    }
    if !inner.enforce_limits {
        return None;
    }
    let now = Instant::now();
    if counts_globally(path) {
        let w = inner.global.get_or_insert(Window {
            opened: now,
            used: 0,
        });
        if now.duration_since(w.opened) >= Duration::from_secs(1) {
            *w = Window {
                opened: now,
                used: 0,
            };
        }
        if w.used >= GLOBAL_PER_SECOND {
            let left = 1.0 - now.duration_since(w.opened).as_secs_f64();
            return Some(too_many(left.max(0.001), true, true, true, "limit: global"));
        }
        w.used += 1;
    }
    if let Some(key) = route_bucket(method, path) {
        let w = inner.buckets.entry(key.clone()).or_insert(Window {
            opened: now,
            used: 0,
        });
        if now.duration_since(w.opened) >= ROUTE_WINDOW {
            *w = Window {
                opened: now,
                used: 0,
            };
        }
        if w.used >= ROUTE_LIMIT {
            let left = (ROUTE_WINDOW - now.duration_since(w.opened)).as_secs_f64();
            return Some(too_many(
                left.max(0.001),
                false,
                true,
                true,
                &format!("limit: {key}"),
            ));
        }
        w.used += 1;
    }
    None
}

/// The `X-RateLimit-*` headers Discord sends on every answer of a limited route, so a
/// client can pace itself.
pub(super) fn limit_headers(inner: &Inner, method: &Method, path: &str, response: &mut Response) {
    if !inner.enforce_limits || response.status() == StatusCode::TOO_MANY_REQUESTS {
        return;
    }
    let Some(key) = route_bucket(method, path) else {
        return;
    };
    let Some(w) = inner.buckets.get(&key) else {
        return;
    };
    let reset_after = ROUTE_WINDOW
        .saturating_sub(w.opened.elapsed())
        .as_secs_f64();
    let h = response.headers_mut();
    h.insert(
        "x-ratelimit-limit",
        ROUTE_LIMIT.to_string().parse().unwrap(),
    );
    h.insert(
        "x-ratelimit-remaining",
        ROUTE_LIMIT
            .saturating_sub(w.used)
            .to_string()
            .parse()
            .unwrap(),
    );
    h.insert(
        "x-ratelimit-reset-after",
        format!("{reset_after:.3}").parse().unwrap(),
    );
    h.insert("x-ratelimit-bucket", key.replace(' ', "").parse().unwrap());
}

impl FakeDiscord {
    /// The next `times` requests whose method is `method` and whose path (after
    /// `/api/v10`) starts with `path_start` get `fault` instead of an answer.
    pub fn inject(&self, method: &str, path_start: &str, fault: Fault, times: usize) {
        self.shared.inner.lock().unwrap().faults.push(Injected {
            method: method.into(),
            path_start: path_start.into(),
            fault,
            left: times,
        });
    }

    /// Forgets every injected fault not yet used up (the end of an outage, for the soak).
    pub fn clear_faults(&self) {
        self.shared.inner.lock().unwrap().faults.clear();
    }

    /// Enforces Discord's rate limits from now on: [`GLOBAL_PER_SECOND`] requests a second
    /// (interaction callbacks and follow-ups aside) and [`ROUTE_LIMIT`] message posts, and
    /// as many edits, per channel per [`ROUTE_WINDOW`]; a request over a limit gets 429.
    pub fn enforce_rate_limits(&self) {
        self.shared.inner.lock().unwrap().enforce_limits = true;
    }

    /// Requests answered 429 because they broke a limit (not the injected ones).
    pub fn limit_hits(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| {
                r.refused
                    .as_deref()
                    .is_some_and(|w| w.starts_with("limit:"))
            })
            .collect()
    }
}
