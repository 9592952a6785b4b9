import { useState } from 'react';
import { Badge, Box, Button, Divider, IconButton, List, MenuItem, Popover, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useLogout, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { MESSAGE_TYPES, MESSAGE_UNREAD, type Message, type MessageType } from '../../domain/messages';
import { useSettingsDrawerOpen } from '../settings/appSettings';
import { MessageItem, useMessageLink } from './MessageItem';
import { RoleSwitch } from './RoleSwitch';
import { useMarkRead, useMessagePages, useUnreadCounts } from './useMessageBox';

/** One tab of the open box: its messages, "all read" and "view more". Opening a message reads it; one that links elsewhere closes the box. */
const MessageTab = ({ type, open, onLeave }: { type: MessageType; open: boolean; onLeave: () => void }) => {
  const translate = useTranslate();
  const { messages, isPending, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useMessagePages(type, open);
  const markRead = useMarkRead();
  const linkOf = useMessageLink();
  const read = (message: Message) => {
    if (message.status === MESSAGE_UNREAD) markRead.mutate({ ids: [message.id] });
    if (linkOf(message) !== undefined) onLeave();
  };
  const anyUnread = messages.some((message) => message.status === MESSAGE_UNREAD);
  return (
    <Box role="tabpanel" data-message-tab={type}>
      {isError ? (
        <Typography sx={{ p: 2 }} color="error">
          {translate('app.messageBox.failed')}
        </Typography>
      ) : !isPending && messages.length === 0 ? (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {translate('app.messageBox.empty')}
        </Typography>
      ) : (
        <List dense sx={{ maxHeight: 360, overflow: 'auto', py: 0 }}>
          {messages.map((message) => (
            <MessageItem key={message.id} message={message} onOpen={read} />
          ))}
        </List>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', px: 1 }}>
        <Button size="small" disabled={!anyUnread || markRead.isPending} onClick={() => markRead.mutate({ type })}>
          {translate('app.messageBox.allRead')}
        </Button>
        <Button size="small" disabled={hasNextPage !== true || isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {translate('app.messageBox.viewMore')}
        </Button>
      </Box>
    </Box>
  );
};

/**
 * The app bar's message box: a bell with the unread count that opens the account's messages, notices and
 * todos (each tab with its unread count), and the way to the user centre, the settings and sign-out.
 */
export const MessageBox = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const logout = useLogout();
  const [, openSettings] = useSettingsDrawerOpen();
  const unread = useUnreadCounts();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [tab, setTab] = useState<MessageType>('message');
  const total = MESSAGE_TYPES.reduce((sum, type) => sum + unread[type], 0);
  const close = () => setAnchor(null);
  const label = total > 0 ? translate('app.messageBox.openUnread', { count: total }) : translate('app.messageBox.open');
  return (
    <>
      <Tooltip title={label}>
        <IconButton color="inherit" aria-label={label} data-message-box onClick={(event) => setAnchor(event.currentTarget)}>
          <Badge badgeContent={total} color="error" max={99} data-unread={total}>
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box data-message-box-panel sx={{ width: 380, maxWidth: 'calc(100vw - 32px)' }}>
          <Tabs value={tab} onChange={(_event, next: MessageType) => setTab(next)} variant="fullWidth">
            {MESSAGE_TYPES.map((type) => (
              <Tab
                key={type}
                value={type}
                label={
                  unread[type] > 0
                    ? translate('app.messageBox.tabWithCount', { label: translate(`app.messageBox.tabs.${type}`), count: unread[type] })
                    : translate(`app.messageBox.tabs.${type}`)
                }
              />
            ))}
          </Tabs>
          <MessageTab key={tab} type={tab} open={anchor !== null} onLeave={close} />
          <Divider />
          <MenuItem
            onClick={() => {
              close();
              navigate('/user/info');
            }}
          >
            {translate('app.messageBox.userCenter')}
          </MenuItem>
          <MenuItem
            onClick={() => {
              close();
              openSettings(true);
            }}
          >
            {translate('app.messageBox.settings')}
          </MenuItem>
          <RoleSwitch />
          <MenuItem
            onClick={() => {
              close();
              void logout(undefined, '/login');
            }}
          >
            {translate('app.messageBox.logout')}
          </MenuItem>
        </Box>
      </Popover>
    </>
  );
};
