import { useGetRecordId } from 'react-admin';
import { ApprovalProfile } from './ApprovalProfile';

/** A request's own page: the basic profile of that request. */
export const ApprovalShow = () => <ApprovalProfile id={Number(useGetRecordId())} />;
