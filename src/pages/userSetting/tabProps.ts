/** What a tab is shown with: whether the account must change its password first, and what to do once it did. */
export interface TabProps {
  mustChangeCode: boolean;
  onPasswordChanged: () => void;
}
