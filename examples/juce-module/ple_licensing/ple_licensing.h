/*
  ==============================================================================

  BEGIN_JUCE_MODULE_DECLARATION

   ID:                 ple_licensing
   vendor:             plugin_license_emulator
   version:            0.1.0
   name:               Plugin licensing: activate, validate, offline grace
   description:        License a JUCE plugin against the platform's /api/license/v1 (or the
                       Plugin License Emulator): tokens checked offline with libsodium, the last
                       good one kept for an offline grace period, one atomic state for the audio
                       thread, and a ready activation component.
   website:            https://github.com/plugin-license-emulator
   license:            MIT
   minimumCppStandard: 17

   dependencies:       juce_core, juce_events, juce_data_structures, juce_graphics, juce_gui_basics
   linuxPackages:      libsodium
   OSXLibs:            sodium
   windowsLibs:        libsodium

  END_JUCE_MODULE_DECLARATION

  ==============================================================================
*/
#pragma once
#define PLE_LICENSING_H_INCLUDED

#include <condition_variable>
#include <mutex>
#include <system_error>

#include <juce_core/juce_core.h>
#include <juce_events/juce_events.h>
#include <juce_gui_basics/juce_gui_basics.h>

#include "licensing/ple_LicensingConfig.h"
#include "licensing/ple_LicenseState.h"
#include "licensing/ple_LicenseToken.h"
#include "licensing/ple_LicenseService.h"
#include "licensing/ple_Licensing.h"
#include "gui/ple_ActivationComponent.h"
