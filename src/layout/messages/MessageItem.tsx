import { Avatar, Badge, ListItemAvatar, ListItemButton, ListItemText } from '@mui/material';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import KeyIcon from '@mui/icons-material/Key';
import SettingsRemoteIcon from '@mui/icons-material/SettingsRemote';
import { useLocaleState, useTranslate } from 'react-admin';
import { MESSAGE_UNREAD, type Message, type MessageKind } from '../../domain/messages';

const KIND_ICONS: Record<MessageKind, typeof KeyIcon> = {
  commandOutcome: SettingsRemoteIcon,
  passwordReset: KeyIcon,
  deviceAssignment: AssignmentIndIcon,
};

/** One message in the box: its picture (or its kind's icon), title, subtitle, content and time; unread ones marked. */
export const MessageItem = ({ message, onRead }: { message: Message; onRead: (message: Message) => void }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const unread = message.status === MESSAGE_UNREAD;
  const Icon = KIND_ICONS[message.messageType];
  return (
    <ListItemButton
      alignItems="flex-start"
      data-message-id={message.id}
      data-message-status={message.status}
      onClick={() => onRead(message)}
      sx={{ opacity: unread ? 1 : 0.65 }}
    >
      <ListItemAvatar>
        <Badge color="error" variant="dot" invisible={!unread} aria-label={unread ? translate('app.messageBox.unread') : undefined}>
          {message.avatar === '' ? (
            <Avatar>
              <Icon />
            </Avatar>
          ) : (
            <Avatar src={message.avatar} />
          )}
        </Badge>
      </ListItemAvatar>
      <ListItemText
        primary={message.title}
        slotProps={{ primary: { fontWeight: unread ? 600 : 400 }, secondary: { component: 'div' } }}
        secondary={
          <>
            <div>{message.subTitle}</div>
            <div>{message.content}</div>
            <div>{new Date(message.time).toLocaleString(locale)}</div>
          </>
        }
      />
    </ListItemButton>
  );
};
