import { Title, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { ApprovalProfile } from './ApprovalProfile';

/** `/profile/basic`: the old console's basic profile, one settings request (`?id=`, else the newest the caller reads). */
export const ProfileBasicPage = () => {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return (
    <>
      <Title title={translate('app.menu.profileBasic')} />
      <ApprovalProfile id={Number.isInteger(id) && id > 0 ? id : undefined} />
    </>
  );
};
