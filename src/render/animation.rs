//! The race as an animated GIF, for the final post: the turn picture after
//! each step, drawn by the same code as the turn posts, one frame a step. Discord shows a
//! GIF inline on every client.
//!
//! Kept modest: at most [`MAX_FRAMES`] frames (evenly spaced, the last always kept),
//! identical steps drawn once, each frame after the first only the rectangle that changed
//! (the rest of the picture stays), each with its own palette of at most 256 colours (the
//! pictures have no more: see `Picture::indexed`). Over [`MAX_GIF_BYTES`] the frames are
//! halved until it fits (docs/discord.md gives the sizes measured).

use std::borrow::Cow;

use super::picture::{self, Picture, RenderError};
use crate::games::AnyPublicView;

/// The most frames drawn.
pub const MAX_FRAMES: usize = 40;
/// The largest GIF posted: well within Discord's 10 MiB per message, beside the chart.
pub const MAX_GIF_BYTES: usize = 6 * 1024 * 1024;
/// How long each step shows, in hundredths of a second.
pub const FRAME_DELAY: u16 = 80;
/// How long the last frame (the finish) shows before the loop starts again.
pub const LAST_DELAY: u16 = 400;

/// An encoded animation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Animation {
    pub gif: Vec<u8>,
    pub frames: usize,
    pub width: u16,
    pub height: u16,
}

/// Which of `n` steps to draw when at most `max` may be: all, or `max` evenly spaced from
/// the first to the last.
pub fn sample(n: usize, max: usize) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let last = n.saturating_sub(1);
    if max < 2 {
        return vec![last];
    }
    let gaps = max.saturating_sub(1);
    let mut out: Vec<usize> = (0..max)
        .map(|i| i.saturating_mul(last).checked_div(gaps).unwrap_or(0))
        .collect();
    out.dedup();
    out
}

fn encoding(e: impl std::fmt::Display) -> RenderError {
    RenderError::Encode(e.to_string())
}

/// The race's animation from its views, one per step, oldest first.
pub fn animate(views: &[AnyPublicView]) -> Result<Animation, RenderError> {
    let mut max = MAX_FRAMES;
    loop {
        let mut pictures: Vec<Picture> = Vec::new();
        let mut last_rgb: Option<Vec<u8>> = None;
        for i in sample(views.len(), max) {
            let Some(view) = views.get(i) else { continue };
            let p = picture::track_picture(view)?;
            let rgb = p.rgb();
            if last_rgb.as_ref() == Some(&rgb) {
                continue;
            }
            last_rgb = Some(rgb);
            pictures.push(p);
        }
        if pictures.is_empty() {
            return Err(RenderError::NoRunners);
        }
        let animation = encode(&pictures)?;
        if animation.gif.len() <= MAX_GIF_BYTES || max <= 2 {
            return Ok(animation);
        }
        max /= 2;
    }
}

/// The frames as one looping GIF.
fn encode(pictures: &[Picture]) -> Result<Animation, RenderError> {
    let width = pictures.iter().map(Picture::width).max().unwrap_or(1);
    let height = pictures.iter().map(Picture::height).max().unwrap_or(1);
    let too_large = RenderError::TooLarge { width, height };
    let w16 = u16::try_from(width).map_err(|_| too_large.clone())?;
    let h16 = u16::try_from(height).map_err(|_| too_large)?;
    let (w, h) = (usize::from(w16), usize::from(h16));
    let mut encoder = gif::Encoder::new(Vec::new(), w16, h16, &[]).map_err(encoding)?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(encoding)?;
    let mut before: Option<Vec<[u8; 3]>> = None;
    let last = pictures.len().saturating_sub(1);
    for (n, p) in pictures.iter().enumerate() {
        let (palette, raw) = p.indexed();
        let pw = usize::try_from(p.width()).unwrap_or(0);
        // The frame on the whole screen: a smaller picture is padded with its most common
        // colour (index 0, the background).
        let mut index = vec![0u8; w.saturating_mul(h)];
        for (y, row) in raw.chunks(pw.saturating_add(1)).enumerate() {
            let (Some(from), Some(to)) = (row.get(1..), index.get_mut(y * w..y * w + pw)) else {
                continue;
            };
            if from.len() == to.len() {
                to.copy_from_slice(from);
            }
        }
        let colours: Vec<[u8; 3]> = index
            .iter()
            .map(|&i| palette.get(usize::from(i)).copied().unwrap_or([0, 0, 0]))
            .collect();
        let (left, top, fw, fh) = match &before {
            Some(prev) => changed(prev, &colours, w, h),
            None => (0, 0, w, h),
        };
        let mut buffer = Vec::with_capacity(fw.saturating_mul(fh));
        for y in top..top.saturating_add(fh) {
            let start = y.saturating_mul(w).saturating_add(left);
            buffer.extend_from_slice(index.get(start..start.saturating_add(fw)).unwrap_or(&[]));
        }
        let frame = gif::Frame {
            delay: if n == last { LAST_DELAY } else { FRAME_DELAY },
            dispose: gif::DisposalMethod::Keep,
            left: u16::try_from(left).unwrap_or(0),
            top: u16::try_from(top).unwrap_or(0),
            width: u16::try_from(fw).unwrap_or(0),
            height: u16::try_from(fh).unwrap_or(0),
            palette: Some(palette.concat()),
            buffer: Cow::Owned(buffer),
            ..gif::Frame::default()
        };
        encoder.write_frame(&frame).map_err(encoding)?;
        before = Some(colours);
    }
    Ok(Animation {
        gif: encoder.into_inner().map_err(encoding)?,
        frames: pictures.len(),
        width: w16,
        height: h16,
    })
}

/// The smallest rectangle holding every pixel that changed: `(left, top, width, height)`,
/// one pixel when nothing did.
fn changed(
    before: &[[u8; 3]],
    after: &[[u8; 3]],
    w: usize,
    h: usize,
) -> (usize, usize, usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0usize, 0usize);
    for (i, (a, b)) in before.iter().zip(after).enumerate() {
        if a != b {
            let (x, y) = (i % w.max(1), i / w.max(1));
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 || y0 > y1 {
        return (0, 0, 1, 1);
    }
    (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_sampled_evenly_and_keep_the_finish() {
        assert_eq!(sample(3, 40), vec![0, 1, 2]);
        assert_eq!(sample(0, 40), Vec::<usize>::new());
        let s = sample(100, 5);
        assert_eq!(s, vec![0, 24, 49, 74, 99]);
        assert_eq!(sample(100, 40).len(), 40);
    }

    #[test]
    fn only_the_changed_rectangle_is_sent_again() {
        let a = vec![[0, 0, 0]; 12];
        let mut b = a.clone();
        b[5] = [1, 1, 1]; // (1, 1) on a 4-wide picture
        b[10] = [1, 1, 1]; // (2, 2)
        assert_eq!(changed(&a, &b, 4, 3), (1, 1, 2, 2));
        assert_eq!(changed(&a, &a, 4, 3), (0, 0, 1, 1));
    }
}
