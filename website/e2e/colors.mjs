// Colour checks of the browser tests: WCAG contrast between an element's text and what is behind it.

/** Relative luminance of an `rgb()`/`rgba()` colour (its alpha ignored: pass an opaque one). */
export function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two opaque colours. */
export function contrast(a, b) {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}

/**
 * An element's text colour and the opaque background behind it: its own and its ancestors'
 * backgrounds composited from the first opaque one up (a translucent highlight is seen over the
 * card under it), white when none is opaque.
 */
export async function colors(locator) {
  return locator.evaluate((el) => {
    const parse = (c) => {
      const [r, g, b, a = 1] = (c.match(/[\d.]+/g) || [0, 0, 0, 0]).map(Number);
      return {r, g, b, a: c === 'transparent' ? 0 : a};
    };
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg.a > 0) layers.push(bg);
      if (bg.a >= 1) break;
    }
    let base = {r: 255, g: 255, b: 255};
    for (const layer of layers.reverse()) {
      base = {
        r: layer.r * layer.a + base.r * (1 - layer.a),
        g: layer.g * layer.a + base.g * (1 - layer.a),
        b: layer.b * layer.a + base.b * (1 - layer.a),
      };
    }
    const round = (v) => Math.round(v);
    return {color: getComputedStyle(el).color, background: `rgb(${round(base.r)}, ${round(base.g)}, ${round(base.b)})`};
  });
}
