/**
 * The few icons the components draw, as inline SVG in the text colour: an emoji
 * or a symbol font is not on every system and would show as an empty box.
 */
import type { ReactNode, SVGProps } from 'react'

const base: SVGProps<SVGSVGElement> = {
  width: '1em',
  height: '1em',
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
}

/**
 * An icon: the shared frame around its drawing, the host's props over it. Its
 * calls are marked pure, so a bundle keeps only the icons a host's parts draw.
 */
function icon(drawing: ReactNode) {
  return (props: SVGProps<SVGSVGElement>) => <svg {...base} {...props}>{drawing}</svg>
}

const THUMB = 'M7 10v11H3V10zM7 10l4-8a2.5 2.5 0 0 1 3 2.5V9h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7'

/** A raised thumb: a good answer. */
export const ThumbUpIcon = /* @__PURE__ */ icon(<path d={THUMB} />)

/** A lowered thumb: a bad answer. */
export const ThumbDownIcon = /* @__PURE__ */ icon(<path d={THUMB} transform="rotate(180 12 12)" />)

/** Two sheets: copy. */
export const CopyIcon = /* @__PURE__ */ icon(
  <>
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
  </>,
)

/** An up arrow: send. */
export const SendIcon = /* @__PURE__ */ icon(<path d="M12 19V5M5 12l7-7 7 7" />)

/** A filled square, the usual "stop" sign (filled, not stroked). */
export const StopIcon = /* @__PURE__ */ icon(<rect x="6" y="6" width="12" height="12" rx="2" fill="currentColor" stroke="none" />)

/** A microphone: dictate. */
export const MicIcon = /* @__PURE__ */ icon(
  <>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
  </>,
)
