import { createContext, useContext } from 'react';
import { defaultConfig, type ConsoleConfig } from './config';

const ConsoleConfigContext = createContext<ConsoleConfig>(defaultConfig);

export const ConsoleConfigProvider = ConsoleConfigContext.Provider;
export const useConsoleConfig = () => useContext(ConsoleConfigContext);
