/**
 * Registers the "weft" panel in Storybook's manager: the inspector of the story
 * being viewed, as the preview's decorator sends it. The addon's manager entry
 * calls it, with weft's stylesheet.
 */
import { useEffect, useState } from 'react'
import { addons, types, useChannel } from 'storybook/manager-api'
import { INSPECTOR_ADDON_ID, INSPECTOR_PANEL_ID, INSPECTOR_REQUEST_EVENT, INSPECTOR_SNAPSHOT_EVENT, type InspectorMessage } from './channel'
import { InspectorAddonView } from './panel-view'

function WeftPanel() {
  const [message, setMessage] = useState<InspectorMessage | undefined>(undefined)
  const emit = useChannel({
    [INSPECTOR_SNAPSHOT_EVENT]: (next: InspectorMessage) => setMessage(next),
    storyChanged: () => setMessage(undefined),
  })
  // Once, on opening: the preview may have sent its snapshot before the panel listened.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => emit(INSPECTOR_REQUEST_EVENT), [])
  return <InspectorAddonView message={message} />
}

/**
 * Add the "weft" panel to Storybook's manager. A call, not an import's side
 * effect, so no bundler drops it (the package marks only its stylesheets as having effects).
 *
 * @example
 * addInspectorPanel()
 */
export function addInspectorPanel(): void {
  addons.register(INSPECTOR_ADDON_ID, () => {
    addons.add(INSPECTOR_PANEL_ID, {
      type: types.PANEL,
      title: 'weft',
      render: ({ active }) => (active ? <WeftPanel /> : null),
    })
  })
}
