import { Box, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { gridRows, type GridRow, type SiteGroup } from './fleetLayout';
import type { FleetStore } from './fleetStore';
import { MonitorTile, TILE_HEIGHT } from './MonitorTile';

const TILE_MIN_WIDTH = 340;
const GAP = 12;
const HEADING_HEIGHT = 40;

const rowKey = (row: GridRow | undefined): string => (row === undefined ? '' : row.kind === 'site' ? `site:${row.group.site}` : `tiles:${row.ids[0] ?? ''}`);

const SiteHeading = ({ group }: { group: SiteGroup }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 1, height: HEADING_HEIGHT, pb: 0.5 }} data-site={group.site}>
      <Typography variant="subtitle1" fontWeight={600} component="h2">
        {group.site}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('app.tiles.siteCount', { count: group.ids.length, sessions: group.sessions })}
      </Typography>
    </Box>
  );
};

const TileRow = memo(function TileRow({ ids, columns, store, onOpen }: { ids: string[]; columns: number; store: FleetStore; onOpen: (id: string) => void }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: `${GAP}px` }}>
      {ids.map((id) => (
        <MonitorTile key={id} id={id} store={store} onOpen={onOpen} />
      ))}
    </Box>
  );
});

/** The container's width, followed as it resizes. */
const useWidth = (element: React.RefObject<HTMLElement | null>): number => {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return undefined;
    // It reports the first size as soon as it observes.
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return width;
};

interface TileGridProps {
  groups: SiteGroup[];
  store: FleetStore;
  onOpen: (id: string) => void;
}

/**
 * The tiles, virtualised by rows (@tanstack/react-virtual): only the rows in view and a few around them are
 * in the page, whatever the size of the fleet. Rows have fixed heights, so nothing is measured.
 */
export const TileGrid = ({ groups, store, onOpen }: TileGridProps) => {
  const scroller = useRef<HTMLDivElement>(null);
  const width = useWidth(scroller);
  const columns = Math.max(1, Math.floor((width + GAP) / (TILE_MIN_WIDTH + GAP)));
  const rows = useMemo(() => gridRows(groups, columns), [groups, columns]);
  // A new key function when the rows change, so the virtualiser lays them out again.
  const getItemKey = useCallback((index: number) => rowKey(rows[index]), [rows]);
  // The virtualiser re-renders this grid on scroll itself; nothing here is left to the React Compiler to memoise.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]?.kind === 'site' ? HEADING_HEIGHT : TILE_HEIGHT + GAP),
    getItemKey,
    overscan: 2,
  });
  return (
    <Box ref={scroller} data-testid="tile-grid" sx={{ height: 'calc(100vh - 190px)', minHeight: 320, overflow: 'auto', contain: 'strict' }}>
      <Box sx={{ position: 'relative', height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (row === undefined) return null;
          return (
            <Box key={item.key} sx={{ position: 'absolute', top: 0, left: 0, width: '100%' }} style={{ height: item.size, transform: `translateY(${item.start}px)` }}>
              {row.kind === 'site' ? <SiteHeading group={row.group} /> : <TileRow ids={row.ids} columns={columns} store={store} onOpen={onOpen} />}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
};
