import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

/** One titled part of a settings tab; `id` names its heading, which labels it. */
export const Section = ({ title, id, children }: { title: string; id: string; children: ReactNode }) => (
  <Box component="section" aria-labelledby={id} sx={{ mb: 3 }}>
    <Typography variant="h6" component="h2" id={id} gutterBottom>
      {title}
    </Typography>
    {children}
  </Box>
);
