import { ResourceList } from '../generate/ResourceList';
import { stateRecordsConfig } from './config';
import { NewerReadingsButton } from './NewerReadingsButton';

/** The readings log: the generated list, still while readings arrive, with the count of newer ones to show. */
export const ReadingsLog = () => <ResourceList config={stateRecordsConfig} toolbarActions={<NewerReadingsButton />} />;
