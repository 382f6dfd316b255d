//! Discord REST calls measured: [`timed`] records each call's latency and counts its
//! failures by HTTP status and JSON error code, with the `metrics` macros. Whatever
//! recorder the process installed renders them (`photofinish run`'s listener, when
//! `metrics.listen` is set); with none, they cost next to nothing. [`timed_out`] tells a
//! request that got no answer in time (the client's timeouts, `discord::http`).

use poise::serenity_prelude as serenity;

/// The REST latency histogram, in seconds, by operation.
pub const REST_SECONDS: &str = "photofinish_discord_rest_seconds";
/// The counter of Discord's refusals and failures, by HTTP status and JSON error code.
pub const ERRORS: &str = "photofinish_discord_errors_total";

/// An error's `status` and `code` labels: Discord's HTTP status and JSON error code, or
/// `none` where it gave none (`status="none"` is no answer at all: a lost connection).
pub fn error_labels(error: &serenity::Error) -> (String, String) {
    use serenity::http::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp)) => (
            resp.status_code.as_u16().to_string(),
            if resp.error.code == 0 {
                "none".to_string()
            } else {
                resp.error.code.to_string()
            },
        ),
        _ => ("none".to_string(), "none".to_string()),
    }
}

/// True when a request got no answer in time: the connection was not made within the
/// connect timeout, or the whole request outran the total one (`discord::http`). Whether
/// it reached Discord is unknown.
pub fn timed_out(error: &serenity::Error) -> bool {
    use serenity::http::HttpError;
    matches!(error, serenity::Error::Http(HttpError::Request(e)) if e.is_timeout())
}

/// An error and its causes in one line: reqwest's own words ("error sending request")
/// leave out why ("operation timed out"), which its source says.
pub fn cause(error: &serenity::Error) -> String {
    use std::error::Error as _;
    let mut line = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        let next = e.to_string();
        if !line.contains(&next) {
            line.push_str(": ");
            line.push_str(&next);
        }
        source = e.source();
    }
    line
}

/// Counts one failed REST call under its status and code.
pub fn count_error(error: &serenity::Error) {
    let (status, code) = error_labels(error);
    metrics::counter!(ERRORS, "status" => status, "code" => code).increment(1);
}

/// Runs one REST call to Discord, recording how long it took (`op` names it) and, if it
/// failed, its status and code.
pub async fn timed<T>(
    op: &'static str,
    call: impl std::future::Future<Output = Result<T, serenity::Error>>,
) -> Result<T, serenity::Error> {
    let started = std::time::Instant::now();
    let result = call.await;
    metrics::histogram!(REST_SECONDS, "op" => op).record(started.elapsed().as_secs_f64());
    if let Err(e) = &result {
        count_error(e);
    }
    result
}
