import type { ReactNode } from 'react';
import { Paper, Typography } from '@mui/material';

/** A titled part of a printable record (a session report, a settings request): outlined on screen, never split across printed pages. */
export const PrintSection = ({ title, heading = 'h6', children }: { title: string; heading?: 'h6' | 'subtitle1'; children: ReactNode }) => (
  <Paper variant="outlined" component="section" sx={{ p: 2, breakInside: 'avoid' }}>
    <Typography variant={heading} component="h2" sx={{ mb: 1 }}>
      {title}
    </Typography>
    {children}
  </Paper>
);
