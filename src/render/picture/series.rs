//! A series' standings over its races: the shared race chart with a column
//! per race, each entrant placed by their points so far, the points in their box.

use super::canvas::Picture;
use super::cast::Cast;
use super::chart::{self, Column, Entry, LapChart};
use super::error::RenderError;
use super::font::fonts;

/// Entrants drawn at most: the chart's rows stay legible on a phone.
pub const MAX_SERIES_ROWS: usize = 12;

/// Draws `names`' points so far after each race: `gained[i][r]` is entrant `i`'s points
/// from race `r`. `status` is the line under the title ("final standings after 2 races").
pub fn series_chart(
    title: &str,
    status: &str,
    names: &[String],
    gained: &[Vec<u32>],
) -> Result<Picture, RenderError> {
    let names: Vec<String> = names.iter().take(MAX_SERIES_ROWS).cloned().collect();
    if names.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let races = gained.iter().map(Vec::len).max().unwrap_or(0);
    let mut so_far = vec![0u32; names.len()];
    let mut columns = Vec::with_capacity(races);
    for r in 0..races {
        for (i, total) in so_far.iter_mut().enumerate() {
            let got = gained.get(i).and_then(|g| g.get(r)).copied().unwrap_or(0);
            *total = total.saturating_add(got);
        }
        let entries = so_far
            .iter()
            .enumerate()
            .map(|(i, &p)| Entry {
                who: i,
                rank: 1 + u32::try_from(so_far.iter().filter(|&&q| q > p).count())
                    .unwrap_or(u32::MAX),
                figure: Some(p.to_string()),
            })
            .collect();
        columns.push(Column::new(format!("R{}", r.saturating_add(1)), entries));
    }
    let cast = Cast::seats(fonts()?, &names);
    chart::draw(
        LapChart {
            title,
            status,
            unit: "race",
            columns,
            min_slots: names.len(),
            legend: "Each box: entrant, and series points after the race. Shaded: tied.".into(),
            empty: "No race of the series has finished yet.",
        },
        &cast,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_chart_draws_a_column_per_race() {
        let names = vec!["Alice".to_string(), "Bob".to_string(), "Bot 1".to_string()];
        let gained = vec![vec![10, 6], vec![6, 10], vec![4, 4]];
        let p = series_chart("Autumn Cup", "final standings", &names, &gained).unwrap();
        assert!(p.width() >= 400 && p.height() > 100);
        assert!(p.png().unwrap().starts_with(b"\x89PNG"));
        assert!(series_chart("Cup", "", &[], &[]).is_err());
    }
}
