import { Avatar, Badge, ListItemAvatar, ListItemButton, ListItemText } from '@mui/material';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import AssignmentLateIcon from '@mui/icons-material/AssignmentLate';
import CardMembershipIcon from '@mui/icons-material/CardMembership';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import KeyIcon from '@mui/icons-material/Key';
import NotificationImportantIcon from '@mui/icons-material/NotificationImportant';
import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import SettingsRemoteIcon from '@mui/icons-material/SettingsRemote';
import { useCreatePath, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { MESSAGE_UNREAD, type Message, type MessageKind } from '../../domain/messages';

const KIND_ICONS: Record<MessageKind, typeof KeyIcon> = {
  commandOutcome: SettingsRemoteIcon,
  passwordReset: KeyIcon,
  deviceAssignment: AssignmentIndIcon,
  alarmRaised: NotificationImportantIcon,
  alarmEscalated: ReportProblemIcon,
  alarmAwaitingAck: AssignmentLateIcon,
  settingRequestAwaiting: FactCheckIcon,
  settingRequestDecided: HowToRegIcon,
  certificateAwaiting: CardMembershipIcon,
};

/** The alarm kinds' icons stand out: red for a notice, amber for the acknowledgement still to give. */
const KIND_COLOURS: Partial<Record<MessageKind, string>> = {
  alarmRaised: 'error.main',
  alarmEscalated: 'error.main',
  alarmAwaitingAck: 'warning.main',
  settingRequestAwaiting: 'warning.main',
  certificateAwaiting: 'warning.main',
};

/** Where the certificates waiting for a decision are decided (docs/user-settings.md, "Certification"). */
const CERTIFICATION_TAB = '/user/setting?tab=certification';

/** Where a message leads, if anywhere: an alarm's to the alarm's page, a certificate's todo to the certification tab. */
export const useMessageLink = (): ((message: Message) => string | undefined) => {
  const createPath = useCreatePath();
  return (message) => {
    if (message.alarm !== undefined) return createPath({ resource: 'alarms', id: message.alarm.id, type: 'show' });
    return message.messageType === 'certificateAwaiting' ? CERTIFICATION_TAB : undefined;
  };
};

/**
 * One message in the box: its picture (or its kind's icon), title, subtitle, content and time; unread ones
 * marked. A message about an alarm is a link to the alarm's page, a certificate's todo to the certification tab.
 */
export const MessageItem = ({ message, onOpen }: { message: Message; onOpen: (message: Message) => void }) => {
  const translate = useTranslate();
  const to = useMessageLink()(message);
  const [locale] = useLocaleState();
  const unread = message.status === MESSAGE_UNREAD;
  const Icon = KIND_ICONS[message.messageType];
  const link = to === undefined ? {} : { component: Link, to };
  return (
    <ListItemButton
      alignItems="flex-start"
      data-message-id={message.id}
      data-message-status={message.status}
      onClick={() => onOpen(message)}
      sx={{ opacity: unread ? 1 : 0.65 }}
      {...link}
    >
      <ListItemAvatar>
        <Badge color="error" variant="dot" invisible={!unread} aria-label={unread ? translate('app.messageBox.unread') : undefined}>
          {message.avatar === '' ? (
            <Avatar sx={{ bgcolor: KIND_COLOURS[message.messageType] }}>
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
      {to === undefined ? null : <KeyboardArrowRightIcon color="action" sx={{ alignSelf: 'center' }} />}
    </ListItemButton>
  );
};
